import { useId } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BookDto, BookPageDto } from '@quire/api';
import { readerQueries } from '../../api/reader';
import type { TransientBookDto } from '../../api/transient-books';
import { useFullScreenDialog } from '../../components/dialogs';

/** Candidate cells that differ from the existing book's are drawn in this colour. */
const DIFF_SX = { color: 'warning.main', fontWeight: 'bold' } as const;

const dimensions = (p: Pick<BookPageDto, 'width' | 'height'> | undefined) =>
  p?.width && p.height ? `${p.width} × ${p.height}` : '';

/**
 * The scanned book beside the book it would replace (ui.md §13.8): name, size, format and page count, then page by
 * page. Without an existing book it lists the candidate alone (the row's details).
 */
export function CompareDialog({
  open,
  candidate,
  existing,
  onClose,
}: {
  open: boolean;
  candidate: TransientBookDto;
  existing?: BookDto;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const titleId = useId();
  const existingPages = useQuery({
    ...readerQueries.pages(existing?.id ?? ''),
    enabled: open && !!existing,
  });
  const summary: { label: string; candidate: string; existing?: string }[] = [
    { label: t('importBooks.compare.name'), candidate: candidate.name, existing: existing?.name },
    { label: t('importBooks.compare.size'), candidate: candidate.size, existing: existing?.size },
    { label: t('importBooks.compare.format'), candidate: candidate.mediaType, existing: existing?.media.mediaType },
    {
      label: t('importBooks.compare.pages'),
      candidate: String(candidate.pages.length),
      existing: existing && String(existing.media.pagesCount),
    },
  ];
  const pageCount = Math.max(candidate.pages.length, existing ? existing.media.pagesCount : 0);
  const pageRows = Array.from({ length: pageCount }, (_, i) => i);
  const differs = (a: string, b: string | undefined) => existing !== undefined && a !== (b ?? '');

  const pageCells = (p: BookPageDto | undefined, other?: BookPageDto, compare = false) => {
    const cells = [p?.fileName ?? '', p?.mediaType ?? '', dimensions(p), p?.size ?? ''];
    const otherCells = [other?.fileName ?? '', other?.mediaType ?? '', dimensions(other), other?.size ?? ''];
    return cells.map((text, i) => (
      <TableCell key={i} dir="auto" sx={compare && differs(text, otherCells[i]) ? DIFF_SX : undefined}>
        {text}
      </TableCell>
    ));
  };

  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="lg" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        {existing ? t('importBooks.compare.title') : t('importBooks.compare.detailsTitle')}
      </DialogTitle>
      <DialogContent dividers>
        <TableContainer>
          <Table size="small" aria-label={t('importBooks.compare.summary')}>
            <TableHead>
              <TableRow>
                <TableCell />
                <TableCell>{t('importBooks.compare.candidate')}</TableCell>
                {existing && <TableCell>{t('importBooks.compare.existing')}</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {summary.map((row) => (
                <TableRow key={row.label}>
                  <TableCell component="th" scope="row">
                    {row.label}
                  </TableCell>
                  <TableCell dir="auto" sx={differs(row.candidate, row.existing) ? DIFF_SX : undefined}>
                    {row.candidate}
                  </TableCell>
                  {existing && <TableCell dir="auto">{row.existing}</TableCell>}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        <Typography variant="subtitle1" component="h3" sx={{ mt: 3, mb: 1 }}>
          {t('importBooks.compare.pageByPage')}
        </Typography>
        <TableContainer>
          <Table size="small" aria-label={t('importBooks.compare.pageByPage')}>
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell colSpan={4}>{t('importBooks.compare.candidate')}</TableCell>
                {existing && <TableCell colSpan={4}>{t('importBooks.compare.existing')}</TableCell>}
              </TableRow>
              <TableRow>
                <TableCell />
                {(existing ? [0, 1] : [0]).flatMap((side) => [
                  <TableCell key={`${side}-f`}>{t('importBooks.compare.fileName')}</TableCell>,
                  <TableCell key={`${side}-t`}>{t('importBooks.compare.mediaType')}</TableCell>,
                  <TableCell key={`${side}-d`}>{t('importBooks.compare.dimensions')}</TableCell>,
                  <TableCell key={`${side}-s`}>{t('importBooks.compare.size')}</TableCell>,
                ])}
              </TableRow>
            </TableHead>
            <TableBody>
              {pageRows.map((i) => {
                const mine = candidate.pages[i];
                const theirs = existingPages.data?.[i];
                return (
                  <TableRow key={i}>
                    <TableCell>{i + 1}</TableCell>
                    {pageCells(mine, theirs, !!existing && !!existingPages.data)}
                    {existing &&
                      (existingPages.isPending ? (
                        <TableCell colSpan={4} aria-hidden>
                          <Skeleton />
                        </TableCell>
                      ) : (
                        pageCells(theirs)
                      ))}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
