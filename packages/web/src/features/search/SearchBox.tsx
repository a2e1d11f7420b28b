import { useEffect, useRef, useState, type HTMLAttributes, type Key, type ReactNode } from 'react';
import { useMatch, useNavigate } from 'react-router';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputBase from '@mui/material/InputBase';
import ListSubheader from '@mui/material/ListSubheader';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { alpha, useTheme } from '@mui/material/styles';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import type { BookDto, CollectionDto, ReadListDto, SeriesDto } from '@quire/api';
import { useBooks, type PosterKind } from '../../api/books';
import { useCollections } from '../../api/collections';
import { useLibraries } from '../../api/libraries';
import { useReadLists } from '../../api/readlists';
import { useSeriesList } from '../../api/series';
import { ALL_LIBRARIES } from '../../app/preferences';
import { bookPath, collectionPath, readListPath, seriesPath } from '../../components/browse/format';
import { Poster, UnreadCount, UnreadTriangle } from '../../components/browse/ItemCard';
import { unfinishedCount } from '../../components/browse/SeriesCard';
import { searchPath, searchRequests } from './search-params';

/** Suggestions per kind. */
const SUGGESTIONS = 10;
const DEBOUNCE_MS = 300;

type Option =
  | { type: 'all'; q: string }
  | { type: 'series'; item: SeriesDto }
  | { type: 'book'; item: BookDto }
  | { type: 'collection'; item: CollectionDto }
  | { type: 'readlist'; item: ReadListDto }
  | { type: 'none' };

const GROUPS: Record<Option['type'], string> = {
  all: '',
  none: '',
  series: 'search.groups.series',
  book: 'search.groups.books',
  collection: 'search.groups.collections',
  readlist: 'search.groups.readLists',
};

function optionKey(o: Option): string {
  if (o.type === 'all' || o.type === 'none') return o.type;
  return `${o.type}:${o.item.id}`;
}

/** The library the current screen is in (not `all`), which the search can be limited to. */
function useCurrentLibraryId(): string | undefined {
  const match = useMatch('/libraries/:libraryId/*');
  const id = match?.params.libraryId;
  return id && id !== ALL_LIBRARIES ? id : undefined;
}

function Thumb({ kind, id, badge }: { kind: PosterKind; id: string; badge?: ReactNode }) {
  return (
    <Box
      aria-hidden
      sx={{ position: 'relative', width: 35, height: 50, flexShrink: 0, borderRadius: 0.5, overflow: 'hidden' }}
    >
      <Poster kind={kind} id={id} />
      {badge}
    </Box>
  );
}

/**
 * The app bar's search (ui.md §1.2): suggestions for series, books, collections and read lists as the user types,
 * "search all" first (Enter takes it) leading to the results page. Inside a library it can be limited to that
 * library. On phones it folds into an icon that opens the field over the app bar.
 */
export function SearchBox() {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const navigate = useNavigate();
  const libraries = useLibraries().data ?? [];
  const currentLibraryId = useCurrentLibraryId();
  const [limitToLibrary, setLimitToLibrary] = useState(true);
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => setQ(input.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);

  const scope = { libraryId: currentLibraryId && limitToLibrary ? currentLibraryId : undefined };
  const library = libraries.find((l) => l.id === scope.libraryId);
  const requests = searchRequests(q, scope);
  const enabled = q.length > 0;
  const series = useSeriesList({ ...requests.series, size: SUGGESTIONS }, { enabled });
  const books = useBooks({ ...requests.books, size: SUGGESTIONS }, { enabled });
  const collections = useCollections({ ...requests.lists, size: SUGGESTIONS }, { enabled });
  const readLists = useReadLists({ ...requests.lists, size: SUGGESTIONS }, { enabled });
  const queries = [series, books, collections, readLists];
  const loading = enabled && queries.some((x) => x.isFetching);
  const settled = enabled && queries.every((x) => x.isSuccess && !x.isPlaceholderData);
  // While a newer query loads, the previous suggestions stay rather than flickering away.
  const current = (x: { data?: unknown }) => enabled && !!x.data;

  const options: Option[] = [];
  if (input.trim()) options.push({ type: 'all', q: input.trim() });
  if (current(series)) series.data?.content.forEach((item) => options.push({ type: 'series', item }));
  if (current(books)) books.data?.content.forEach((item) => options.push({ type: 'book', item }));
  if (current(collections)) collections.data?.content.forEach((item) => options.push({ type: 'collection', item }));
  if (current(readLists)) readLists.data?.content.forEach((item) => options.push({ type: 'readlist', item }));
  if (settled && options.length === 1 && q === input.trim()) options.push({ type: 'none' });

  const libraryName = (id: string) => libraries.find((l) => l.id === id)?.name ?? '';
  const reset = () => {
    setInput('');
    setQ('');
    setOpen(false);
    setExpanded(false);
    inputRef.current?.blur();
  };
  const choose = (o: Option) => {
    let to: string | null = null;
    if (o.type === 'all') to = searchPath(o.q, scope);
    else if (o.type === 'series') to = seriesPath(o.item);
    else if (o.type === 'book') to = bookPath(o.item);
    else if (o.type === 'collection') to = collectionPath(o.item.id);
    else if (o.type === 'readlist') to = readListPath(o.item.id);
    if (!to) return;
    reset();
    void navigate(to);
  };

  const renderOption = (props: HTMLAttributes<HTMLLIElement> & { key: Key }, o: Option) => {
    const { key, ...rest } = props;
    void key;
    let content;
    if (o.type === 'all')
      content = (
        <>
          <SearchIcon color="action" />
          <Typography noWrap>{t('search.searchAll', { q: o.q })}</Typography>
        </>
      );
    else if (o.type === 'none') content = <Typography color="text.secondary">{t('search.noResults')}</Typography>;
    else if (o.type === 'series') {
      const unfinished = unfinishedCount(o.item);
      const year = o.item.booksMetadata.releaseDate?.slice(0, 4);
      content = (
        <>
          <Thumb
            kind="series"
            id={o.item.id}
            badge={unfinished > 0 ? <UnreadCount count={unfinished} label={t('search.unread')} /> : undefined}
          />
          <Box sx={{ minWidth: 0 }}>
            <Typography noWrap>{o.item.metadata.title}</Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="div">
              {[t('search.inLibrary', { library: libraryName(o.item.libraryId) }), year].filter(Boolean).join(' · ')}
            </Typography>
          </Box>
        </>
      );
    } else if (o.type === 'book')
      content = (
        <>
          <Thumb
            kind="books"
            id={o.item.id}
            badge={!o.item.readProgress ? <UnreadTriangle label={t('search.unread')} /> : undefined}
          />
          <Box sx={{ minWidth: 0 }}>
            <Typography noWrap>{o.item.metadata.title}</Typography>
            {!o.item.oneshot && (
              <Typography variant="caption" color="text.secondary" noWrap component="div">
                {t('search.bookOf', { series: o.item.seriesTitle, number: o.item.metadata.number })}
              </Typography>
            )}
            <Typography variant="caption" color="text.secondary" noWrap component="div">
              {t('search.inLibrary', { library: libraryName(o.item.libraryId) })}
            </Typography>
          </Box>
        </>
      );
    else
      content = (
        <>
          <Thumb kind={o.type === 'collection' ? 'collections' : 'readlists'} id={o.item.id} />
          <Typography noWrap>{o.item.name}</Typography>
        </>
      );
    return (
      <Box
        component="li"
        key={optionKey(o)}
        {...rest}
        sx={{ display: 'flex', gap: 1.5, alignItems: 'center', minWidth: 0 }}
      >
        {content}
      </Box>
    );
  };

  if (phone && !expanded) {
    return (
      <>
        <Box sx={{ flex: 1 }} />
        <Tooltip title={t('search.label')}>
          <IconButton color="inherit" aria-label={t('search.label')} onClick={() => setExpanded(true)}>
            <SearchIcon />
          </IconButton>
        </Tooltip>
      </>
    );
  }

  const field = (
    <Autocomplete<Option, false, false, true>
      freeSolo
      autoHighlight
      open={open && !!input.trim()}
      onOpen={() => setOpen(true)}
      onClose={(_, reason) => {
        setOpen(false);
        if (reason === 'escape') reset();
      }}
      options={options}
      filterOptions={(x) => x}
      groupBy={(o) => GROUPS[o.type]}
      renderGroup={(params) => (
        <li key={params.key}>
          {params.group && (
            <ListSubheader component="div" sx={{ textTransform: 'uppercase', lineHeight: '32px' }}>
              {t(params.group)}
            </ListSubheader>
          )}
          <Box component="ul" sx={{ p: 0 }}>
            {params.children}
          </Box>
        </li>
      )}
      getOptionLabel={(o) => (typeof o === 'string' ? o : optionKey(o))}
      getOptionKey={(o) => (typeof o === 'string' ? o : optionKey(o))}
      getOptionDisabled={(o) => o.type === 'none'}
      isOptionEqualToValue={(a, b) => optionKey(a) === optionKey(b)}
      value={null}
      inputValue={input}
      onInputChange={(_, value, reason) => {
        if (reason === 'input' || reason === 'clear') setInput(value);
      }}
      onChange={(_, value) => {
        if (typeof value === 'string') {
          if (value.trim()) choose({ type: 'all', q: value.trim() });
        } else if (value) choose(value);
      }}
      onBlur={() => {
        if (phone) setExpanded(false);
      }}
      renderOption={renderOption}
      slotProps={{
        paper: { sx: { width: { xs: '100vw', sm: '80vw', md: '40vw' }, maxWidth: 640 } },
        listbox: { sx: { maxHeight: '80vh' } },
        popper: { placement: 'bottom-start', sx: { minWidth: { md: 420 } } },
      }}
      sx={{ flex: 1, maxWidth: { sm: 560 } }}
      renderInput={(params) => (
        <InputBase
          ref={params.InputProps.ref}
          inputRef={inputRef}
          inputProps={{ ...params.inputProps, 'aria-label': t('search.label') }}
          autoFocus={phone}
          placeholder={library ? t('search.placeholderIn', { library: library.name }) : t('search.placeholder')}
          startAdornment={
            phone ? (
              <IconButton color="inherit" aria-label={t('search.close')} onClick={reset} size="small" edge="start">
                {theme.direction === 'rtl' ? <ArrowForwardIcon /> : <ArrowBackIcon />}
              </IconButton>
            ) : (
              <InputAdornment position="start" sx={{ color: 'inherit' }}>
                <SearchIcon />
              </InputAdornment>
            )
          }
          endAdornment={
            <>
              {loading && <CircularProgress color="inherit" size={18} aria-label={t('common.loading')} />}
              {currentLibraryId && (
                <Tooltip title={t('search.scopeHint')}>
                  <Chip
                    size="small"
                    label={limitToLibrary ? libraryName(currentLibraryId) : t('search.allLibraries')}
                    onClick={() => setLimitToLibrary((v) => !v)}
                    aria-label={
                      limitToLibrary
                        ? t('search.scopeLibrary', { library: libraryName(currentLibraryId) })
                        : t('search.scopeAllLibraries', { library: libraryName(currentLibraryId) })
                    }
                    sx={{
                      ml: 1,
                      color: 'inherit',
                      // Darker than the bar, not lighter: white on a lightened primary was 3.2:1 (AA wants 4.5).
                      bgcolor: (th) => alpha(th.palette.common.black, 0.25),
                      maxWidth: 140,
                    }}
                  />
                </Tooltip>
              )}
            </>
          }
          sx={{
            color: 'inherit',
            width: '100%',
            px: 1.5,
            py: 0.25,
            borderRadius: 1,
            bgcolor: (th) => alpha(th.palette.common.white, 0.15),
            '&:hover': { bgcolor: (th) => alpha(th.palette.common.white, 0.25) },
            '&.Mui-focused': { bgcolor: (th) => alpha(th.palette.common.white, 0.25) },
          }}
        />
      )}
    />
  );

  if (phone)
    return (
      <Box
        sx={{
          position: 'absolute',
          inset: 0,
          zIndex: 1,
          display: 'flex',
          alignItems: 'center',
          px: 1,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
        }}
      >
        {field}
      </Box>
    );
  return <Box sx={{ flex: 1, display: 'flex', justifyContent: 'center', mx: 2, minWidth: 0 }}>{field}</Box>;
}
