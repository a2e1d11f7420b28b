import { useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import EditIcon from '@mui/icons-material/Edit';
import type { BookDto, SeriesDto } from '@quire/api';
import { useBook } from '../../api/books';
import { useLibraries } from '../../api/libraries';
import { readListQueries } from '../../api/readlists';
import { usePageTitle } from '../../app/usePageTitle';
import { FilePath } from '../../components/FilePath';
import { translateServerMessage } from '../../i18n/errorMessage';
import { formatFileSize } from '../../i18n/format';
import { isInProgress, isRead, useLibraryUnavailable } from './availability';
import { BookActionsMenu } from './BookActionsMenu';
import { parseContext, type ItemContext } from './context';
import { BookNavigation } from './detail/BookNavigation';
import { ChipRow, TextRow, type ChipItem } from './detail/ChipRow';
import { DetailHeader } from './detail/DetailHeader';
import { DetailError, DetailSkeleton, isGone } from './detail/DetailStates';
import { DetailToolbar } from './detail/DetailToolbar';
import {
  authorsByRole,
  bookFormat,
  compactBookTitle,
  formatDateTime,
  formatReleaseDate,
  languageName,
} from './detail/format';
import { isFilterableRole, libraryBrowsePath, seriesBooksPath } from './detail/links';
import { CollectionPanels, ReadListPanels } from './detail/MembershipPanels';
import { Poster } from './detail/Poster';
import { BookReadActions } from './detail/ReadActions';
import { ReadMore } from './detail/ReadMore';
import { SeriesChips } from './detail/SeriesChips';
import { EditBooksDialog, EditOneshotDialog } from './dialogs';
import { useRoles } from './roles';

/** `/book/:bookId` (ui.md §6). A one-shot's book is shown on its one-shot page instead. */
export function BookPage() {
  const { bookId = '' } = useParams();
  const [search] = useSearchParams();
  const book = useBook(bookId);
  if (book.isPending) return <DetailSkeleton />;
  if (!book.data) return <DetailError error={book.error} onRetry={() => void book.refetch()} />;
  // Deleted while shown: back to its series. Other refresh failures keep what is on screen.
  if (book.isError && isGone(book.error))
    return <Navigate to={`/series/${encodeURIComponent(book.data.seriesId)}`} replace />;
  if (book.data.oneshot) {
    const qs = search.toString();
    return <Navigate to={`/oneshot/${encodeURIComponent(book.data.seriesId)}${qs ? `?${qs}` : ''}`} replace />;
  }
  return <BookDetail book={book.data} context={parseContext(search)} />;
}

export interface BookDetailProps {
  book: BookDto;
  /** A one-shot: the page shows the series' fields too, and navigates like a series. */
  oneshot?: SeriesDto;
  context?: ItemContext;
}

/** The book page's content; the one-shot page is the same with the series' fields added. */
export function BookDetail({ book, oneshot, context }: BookDetailProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const roles = useRoles();
  const libraries = useLibraries().data;
  const library = libraries?.find((l) => l.id === book.libraryId);
  const unavailable = useLibraryUnavailable(book.libraryId);
  const readListId = context?.type === 'readlist' ? context.id : undefined;
  const readList = useQuery({ ...readListQueries.detail(readListId ?? ''), enabled: !!readListId });
  const [editing, setEditing] = useState<{ open: boolean } | null>(null);
  const locale = i18n.language;
  const meta = book.metadata;

  usePageTitle(oneshot ? meta.title : compactBookTitle(book));

  const back = readListId
    ? { to: `/readlists/${encodeURIComponent(readListId)}`, label: t('items.nav.toReadList') }
    : context?.type === 'collection'
      ? { to: `/collections/${encodeURIComponent(context.id)}`, label: t('items.nav.toCollection') }
      : oneshot
        ? { to: libraryBrowsePath(book.libraryId), label: t('items.nav.toLibrary') }
        : { to: `/series/${encodeURIComponent(book.seriesId)}`, label: t('items.nav.toSeries') };

  const pages = book.media.pagesCount;
  const progress = book.readProgress;
  const inProgress = isInProgress(book);
  const pagesLeft = inProgress && progress ? Math.max(0, pages - progress.page) : 0;
  const status = book.media.status;
  const authorLink = (name: string, role: string) =>
    !isFilterableRole(role)
      ? undefined
      : oneshot
        ? libraryBrowsePath(book.libraryId, { author: [{ name, role }] })
        : seriesBooksPath(book.seriesId, { author: [{ name, role }] });
  const tagLink = (tag: string) =>
    oneshot ? libraryBrowsePath(book.libraryId, { tag: [tag] }) : seriesBooksPath(book.seriesId, { tag: [tag] });

  const authorRows = authorsByRole(meta.authors).map(([role, names]) => ({
    role,
    items: names.map((name): ChipItem => ({ key: name, label: name, to: authorLink(name, role) })),
  }));
  const statusMessage =
    book.deleted || unavailable
      ? t('items.book.media.unavailable')
      : status === 'UNKNOWN'
        ? t('items.book.media.unknown')
        : status === 'ERROR'
          ? t('items.book.media.error')
          : status === 'UNSUPPORTED'
            ? t('items.book.media.unsupported')
            : status === 'OUTDATED'
              ? t('items.book.media.outdated')
              : null;
  const comment = book.media.comment ? translateServerMessage(t, book.media.comment) : '';

  return (
    <Box>
      <DetailToolbar
        back={back}
        title={oneshot ? meta.title : compactBookTitle(book)}
        actions={
          <>
            {(!oneshot || readListId) && <BookNavigation book={book} readListId={readListId} />}
            {roles.admin && (
              <Tooltip title={t('items.actions.edit')}>
                <IconButton aria-label={t('items.actions.edit')} onClick={() => setEditing({ open: true })}>
                  <EditIcon />
                </IconButton>
              </Tooltip>
            )}
            <BookActionsMenu
              book={book}
              context={readListId ? { type: 'readlist', id: readListId } : undefined}
              size="medium"
              onDeleted={() => void navigate(back.to, { replace: true })}
            />
          </>
        }
      />
      {readListId && readList.data && (
        <Alert severity="info" sx={{ mx: { xs: 2, sm: 3 }, mt: 2 }}>
          {t('items.book.readListNavigation', { name: readList.data.name })}
        </Alert>
      )}

      <DetailHeader
        poster={
          <Poster kind="books" id={book.id} alt={t('items.detail.posterOf', { title: meta.title })}>
            {(inProgress || isRead(book)) && progress && (
              <Tooltip
                describeChild
                title={t('items.book.readOn', { date: formatDateTime(progress.readDate, locale) })}
              >
                <Box
                  sx={{
                    position: 'absolute',
                    insetInline: 0,
                    bottom: 0,
                    px: 1,
                    py: 0.5,
                    bgcolor: (th) => alpha(th.palette.common.black, 0.6),
                    color: 'common.white',
                    typography: 'caption',
                    textAlign: 'center',
                  }}
                >
                  {inProgress
                    ? t('items.book.pagesLeft', { count: pagesLeft })
                    : t('items.book.readOn', { date: formatReleaseDate(progress.readDate.slice(0, 10), locale) })}
                </Box>
              </Tooltip>
            )}
          </Poster>
        }
        info={
          <>
            {oneshot ? (
              <>
                <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
                  {meta.title}
                </Typography>
                <LibraryLine libraryId={book.libraryId} name={library?.name} />
              </>
            ) : (
              <>
                <Box>
                  <Link
                    component={RouterLink}
                    to={`/series/${encodeURIComponent(book.seriesId)}`}
                    variant="h5"
                    underline="hover"
                    color="inherit"
                    sx={{ overflowWrap: 'anywhere' }}
                  >
                    {book.seriesTitle}
                  </Link>
                  <LibraryLine libraryId={book.libraryId} name={library?.name} />
                </Box>
                <Typography variant="h6" component="h1" sx={{ overflowWrap: 'anywhere' }}>
                  {meta.title}
                </Typography>
              </>
            )}
            <Typography variant="body2" color="text.secondary">
              {[
                oneshot ? null : t('items.book.number', { number: meta.number }),
                status === 'UNKNOWN' ? t('items.book.toBeAnalyzed') : t('items.book.pages', { count: pages }),
              ]
                .filter(Boolean)
                .join(' · ')}
            </Typography>
            {meta.releaseDate && (
              <Typography variant="body2" color="text.secondary">
                {formatReleaseDate(meta.releaseDate, locale)}
              </Typography>
            )}
            <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
              {oneshot && <SeriesChips series={oneshot} locale={locale} withStatus={false} />}
              {status === 'OUTDATED' && (
                <Tooltip describeChild title={roles.admin ? t('items.book.outdatedHint') : ''}>
                  <Chip size="small" color="warning" label={t('items.book.outdated')} />
                </Tooltip>
              )}
              {(book.deleted || unavailable) && (
                <Chip size="small" color="error" label={t('items.detail.unavailable')} />
              )}
            </Stack>
          </>
        }
      >
        {statusMessage && status !== 'OUTDATED' && (
          <Alert severity={status === 'UNKNOWN' && !book.deleted && !unavailable ? 'info' : 'warning'}>
            {statusMessage}
            {comment && status !== 'READY' ? ` ${comment}` : ''}
          </Alert>
        )}
        <BookReadActions book={book} roles={roles} libraryUnavailable={unavailable} readListId={readListId} />
        {inProgress && progress && pages > 0 && (
          <Box sx={{ maxWidth: 360 }}>
            <LinearProgress
              variant="determinate"
              color="warning"
              value={(progress.page / pages) * 100}
              aria-label={t('items.book.progress', { page: progress.page, total: pages })}
            />
            <Typography variant="caption" color="text.secondary">
              {t('items.book.progress', { page: progress.page, total: pages })}
            </Typography>
          </Box>
        )}
        {meta.summary && <ReadMore text={meta.summary} />}
      </DetailHeader>

      <Box sx={{ px: { xs: 2, sm: 3 }, pb: 3 }}>
        {oneshot && (
          <>
            <ChipRow
              label={t('items.fields.publisher')}
              items={
                oneshot.metadata.publisher
                  ? [
                      {
                        key: 'publisher',
                        label: oneshot.metadata.publisher,
                        to: libraryBrowsePath(book.libraryId, { publisher: [oneshot.metadata.publisher] }),
                      },
                    ]
                  : []
              }
            />
            <ChipRow
              label={t('items.fields.genres')}
              items={[...oneshot.metadata.genres]
                .sort((a, b) => a.localeCompare(b, locale))
                .map((g) => ({ key: g, label: g, to: libraryBrowsePath(book.libraryId, { genre: [g] }) }))}
            />
          </>
        )}
        {authorRows.map(({ role, items }) => (
          <ChipRow key={role} label={t(`items.roles.${role}`, { defaultValue: role })} items={items} />
        ))}
        <ChipRow
          label={t('items.fields.tags')}
          items={meta.tags.map((tag) => ({ key: tag, label: tag, to: tagLink(tag) }))}
        />
        <ChipRow
          label={t('items.fields.links')}
          items={[...(oneshot?.metadata.links ?? []), ...meta.links].map((l, i) => ({
            key: `${i}-${l.url}`,
            label: l.label || l.url,
            href: l.url,
          }))}
        />
        <Divider sx={{ my: 2 }} />
        <TextRow label={t('items.fields.size')}>
          <bdi>{formatFileSize(book.sizeBytes, locale)}</bdi>
        </TextRow>
        <TextRow label={t('items.fields.format')}>{status === 'UNKNOWN' ? '' : bookFormat(book.media)}</TextRow>
        {comment && (
          <TextRow label={t('items.fields.comment')}>
            <Box component="span" sx={{ color: 'error.main', fontWeight: 'bold' }}>
              {comment}
            </Box>
          </TextRow>
        )}
        <TextRow label={t('items.fields.isbn')}>{meta.isbn && <bdi dir="ltr">{meta.isbn}</bdi>}</TextRow>
        {oneshot?.metadata.language && (
          <TextRow label={t('items.fields.language')}>{languageName(oneshot.metadata.language, locale)}</TextRow>
        )}
        {roles.admin && (
          <TextRow label={t('items.fields.file')}>
            <FilePath path={book.url} />
          </TextRow>
        )}
        <TextRow label={t('items.fields.created')}>{formatDateTime(book.created, locale)}</TextRow>
        <TextRow label={t('items.fields.lastModified')}>{formatDateTime(book.lastModified, locale)}</TextRow>

        <Stack spacing={1} sx={{ mt: 3 }}>
          {oneshot && <CollectionPanels seriesId={oneshot.id} />}
          <ReadListPanels bookId={book.id} />
        </Stack>
      </Box>

      {editing &&
        (oneshot ? (
          <EditOneshotDialog
            open={editing.open}
            series={oneshot}
            book={book}
            onClose={() => setEditing({ open: false })}
          />
        ) : (
          <EditBooksDialog open={editing.open} books={[book]} onClose={() => setEditing({ open: false })} />
        ))}
    </Box>
  );
}

/**
 * "in {library}", linking to the library's series. Not through `Trans`: its parser takes the string's `<link>` for
 * HTML's void element and renders the link empty (no text, no accessible name), so the text around the tag is cut out
 * here and the link drawn with the name.
 */
export function LibraryLine({ libraryId, name }: { libraryId: string; name?: string }) {
  const { t } = useTranslation();
  if (!name) return null;
  const [before = '', after = ''] = t('items.detail.inLibrary', { name }).split(/<link>.*?<\/link>/);
  return (
    <Typography variant="body2" color="text.secondary">
      {before}
      <Link component={RouterLink} to={libraryBrowsePath(libraryId)} underline="hover">
        {name}
      </Link>
      {after}
    </Typography>
  );
}
