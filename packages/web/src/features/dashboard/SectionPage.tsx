import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import { useTranslation } from 'react-i18next';
import type { BookDto, SeriesDto } from '@quire/api';
import { ALL_LIBRARIES } from '../../app/preferences';
import { useItemDialogs } from '../../components/browse/dialogs';
import { ItemGrid } from '../../components/browse/ItemGrid';
import { DisplayMenu, Pager, usePageSize, useScrollTopOnChange } from '../../components/browse/Pager';
import { SelectionBar, STICKY_TOP } from '../../components/browse/SelectionBar';
import { useSelection } from '../../components/browse/selection';
import { ErrorState } from '../../components/ErrorState';
import { NotFoundPage } from '../errors/NotFoundPage';
import { useLibraryOf } from '../library/LibraryToolbar';
import { useSectionCards } from './sectionCards';
import { isSectionId, sectionDef, sectionPage, type SectionDef } from './sections';

/** "See all" of a dashboard section: the whole list as a paged grid, for all libraries or one. */
export function SectionPage() {
  const { section, libraryId } = useParams();
  if (!isSectionId(section)) return <NotFoundPage />;
  return <SectionGrid key={`${libraryId}/${section}`} def={sectionDef(section)} libraryId={libraryId} />;
}

function SectionGrid({ def, libraryId }: { def: SectionDef; libraryId: string | undefined }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const [params, setParams] = useSearchParams();
  const pageSize = usePageSize();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  useScrollTopOnChange(page);
  const scoped = libraryId && libraryId !== ALL_LIBRARIES ? libraryId : undefined;
  const { library } = useLibraryOf(scoped ?? '');
  const libraryIds = scoped ? [scoped] : undefined;
  const query = useQuery(sectionPage<BookDto | SeriesDto>(def, libraryIds, page - 1, pageSize));
  const selection = useSelection(`${page}/${pageSize}`);
  const dialogs = useItemDialogs();
  const back = scoped ? `/libraries/${encodeURIComponent(scoped)}/recommended` : '/dashboard';
  const setPage = (p: number) => {
    const next = new URLSearchParams(params);
    if (p <= 1) next.delete('page');
    else next.set('page', String(p));
    setParams(next);
  };
  const data = query.data;
  const title = t(`dashboard.sections.${def.id}`);
  const { renderBook, renderSeries } = useSectionCards(def, dialogs);

  return (
    <>
      {selection.count === 0 && (
        <Paper
          square
          elevation={0}
          sx={{
            position: 'sticky',
            ...STICKY_TOP,
            zIndex: (th) => th.zIndex.appBar - 2,
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            px: { xs: 1, sm: 2 },
            minHeight: 56,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Tooltip title={t('dashboard.back')}>
            <IconButton component={RouterLink} to={back} aria-label={t('dashboard.back')} edge="start">
              {theme.direction === 'rtl' ? <ArrowForwardIcon /> : <ArrowBackIcon />}
            </IconButton>
          </Tooltip>
          <Typography variant="h6" component="h1" noWrap sx={{ flex: 1, minWidth: 0 }}>
            {library ? t('dashboard.sectionIn', { section: title, library: library.name }) : title}
          </Typography>
          <DisplayMenu />
        </Paper>
      )}
      <SelectionBar
        selection={selection}
        dialogs={dialogs}
        page={
          def.kind === 'book'
            ? { kind: 'book', items: (data?.content ?? []) as BookDto[] }
            : { kind: 'series', items: (data?.content ?? []) as SeriesDto[] }
        }
      />
      <Box sx={{ px: { xs: 1.5, sm: 2 }, py: 2 }}>
        <Pager page={page} totalPages={data?.totalPages ?? 0} onChange={setPage} />
        {query.isError ? (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        ) : def.kind === 'book' ? (
          <ItemGrid
            kind="book"
            items={data?.content as BookDto[] | undefined}
            selection={selection}
            label={title}
            skeletons={Math.min(pageSize, 50)}
            renderItem={renderBook}
          />
        ) : (
          <ItemGrid
            kind="series"
            items={data?.content as SeriesDto[] | undefined}
            selection={selection}
            label={title}
            skeletons={Math.min(pageSize, 50)}
            renderItem={renderSeries}
          />
        )}
        <Pager page={page} totalPages={data?.totalPages ?? 0} onChange={setPage} />
      </Box>
      {dialogs.element}
    </>
  );
}
