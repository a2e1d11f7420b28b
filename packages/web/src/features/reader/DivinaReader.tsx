import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import GridViewIcon from '@mui/icons-material/GridView';
import SettingsIcon from '@mui/icons-material/Settings';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { BookDto, ReadListDto, SeriesDto } from '@quire/api';
import type { ReadingDirection, WebReaderPreferences } from '../../app/preferences';
import { usePageTitle } from '../../app/usePageTitle';
import { usePrefersReducedMotion } from '../../app/providers';
import { patchReadProgress, useBookPages, type BookPageDto } from '../../api/reader';
import { ContinuousView, atBottom, atTop } from './ContinuousView';
import {
  hasModifier,
  isTypingTarget,
  pagedArrowKeys,
  pagedKeyMove,
  type PageMove,
  type PagedDirection,
  type TapAction,
} from './controls';
import { DivinaBottomBar } from './DivinaBottomBar';
import { DivinaSettings } from './DivinaSettings';
import { PagedView } from './PagedView';
import { PageMenu } from './PageMenu';
import { ReaderLoading, ReaderNotice, ReaderProblem, useReaderDocument, type Notice } from './ReaderFrame';
import { ReaderTopBar } from './ReaderTopBar';
import {
  bookReaderPath,
  compactTitle,
  exitPath,
  readingContext,
  startPage,
  useReaderBook,
  type ReadingContext,
} from './session';
import {
  CONTINUOUS_SCALES,
  PAGED_SCALES,
  PAGE_LAYOUTS,
  PAGE_MARGINS,
  READING_DIRECTIONS,
  SIDE_PADDINGS,
  cycle,
  saveWebReaderSettings,
  useWebReaderSettings,
} from './settings';
import { ShortcutHelp, type ShortcutSection } from './ShortcutHelp';
import { buildSpreads, spreadIndexOf, spreadPage } from './spreads';
import { ThumbnailExplorer } from './ThumbnailExplorer';
import { useFullscreen, type Fullscreen } from './useFullscreen';
import { useProgressSaver } from './useProgressSaver';

const BACKGROUND_COLORS = { black: '#000000', gray: '#212121', white: '#ffffff' } as const;
/** Quiet time before a page is saved as progress: paging through quickly sends one request. */
const PROGRESS_QUIET_MS = 300;
/** The continuous reader's keys at the top or bottom trigger the previous/next book at most this often. */
const EDGE_KEY_THROTTLE_MS = 500;

const isDirection = (value: string | undefined): value is ReadingDirection =>
  READING_DIRECTIONS.includes(value as ReadingDirection);

/** `/book/:bookId/read`: the paged and continuous reader of comics, manga, DiViNa EPUBs and PDFs (ui.md §11.1–11.6). */
export function DivinaReader() {
  const { bookId = '' } = useParams();
  const settings = useWebReaderSettings();
  const fullscreen = useFullscreen(settings.alwaysFullscreen);
  // A new book starts a new reading session: everything below starts afresh (settings and full screen stay).
  return <DivinaBook key={bookId} bookId={bookId} settings={settings} fullscreen={fullscreen} />;
}

interface DivinaBookProps {
  bookId: string;
  settings: WebReaderPreferences;
  fullscreen: Fullscreen;
}

function DivinaBook({ bookId, settings, fullscreen }: DivinaBookProps) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [ctx] = useState(() => readingContext(params));
  const loaded = useReaderBook(bookId, ctx);
  const pages = useBookPages(bookId);
  const book = loaded.book;
  const { t } = useTranslation();
  usePageTitle(
    book ? (loaded.readList ? `${loaded.readList.name} - ${book.metadata.title}` : compactTitle(book)) : null,
  );

  const close = () => navigate(book ? exitPath(book, ctx) : '/');
  if (loaded.isError)
    return <ReaderProblem error={loaded.error} onClose={close} onRetry={() => void loaded.refetch()} />;
  if (book && book.media.status !== 'READY') return <ReaderProblem message={t('reader.notReady')} onClose={close} />;
  if (pages.isError) return <ReaderProblem error={pages.error} onClose={close} onRetry={() => void pages.refetch()} />;
  if (!book || !pages.data || !loaded.seriesSettled) return <ReaderLoading />;
  if (pages.data.length === 0) return <ReaderProblem message={t('reader.noPages')} onClose={close} />;
  return (
    <DivinaSession
      book={book}
      series={loaded.series}
      readList={loaded.readList}
      next={loaded.next}
      previous={loaded.previous}
      pages={pages.data}
      ctx={ctx}
      settings={settings}
      fullscreen={fullscreen}
    />
  );
}

interface DivinaSessionProps {
  book: BookDto;
  series: SeriesDto | undefined;
  readList: ReadListDto | undefined;
  next: BookDto | null | undefined;
  previous: BookDto | null | undefined;
  pages: BookPageDto[];
  ctx: ReadingContext;
  settings: WebReaderPreferences;
  fullscreen: Fullscreen;
}

type Overlay = 'settings' | 'thumbnails' | 'help' | null;

function DivinaSession(props: DivinaSessionProps) {
  const { book, pages, ctx, settings, fullscreen } = props;
  const { t } = useTranslation();
  const reducedMotion = usePrefersReducedMotion();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const pagesCount = pages.length;

  // The series' reading direction wins when it has one; the user's choice (remembered) otherwise.
  const seriesDirection = props.series?.metadata.readingDirection;
  const [direction, setDirectionState] = useState<{ value: ReadingDirection; fromSeries: boolean }>(() =>
    isDirection(seriesDirection)
      ? { value: seriesDirection, fromSeries: true }
      : { value: settings.readingDirection ?? 'LEFT_TO_RIGHT', fromSeries: false },
  );
  const continuous = direction.value === 'WEBTOON';
  useReaderDocument(continuous);
  const pagedDirection: PagedDirection = continuous ? 'VERTICAL' : (direction.value as PagedDirection);

  const [page, setPage] = useState(() => startPage(params, book, pagesCount));
  const [jump, setJump] = useState(() => ({ page, seq: 0 }));
  const [toolbars, setToolbars] = useState(false);
  const [overlay, setOverlay] = useState<Overlay>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  /** The end or start of the book was hit once; hitting it again while its notice shows leaves the book. */
  const [edge, setEdge] = useState<'end' | 'start' | null>(null);
  const noticeSeq = useRef(0);

  const show = useCallback((text: string, position: Notice['position'] = 'center', severity?: Notice['severity']) => {
    noticeSeq.current += 1;
    setNotice({ text, key: noticeSeq.current, position, severity });
  }, []);
  const closeNotice = () => {
    setNotice(null);
    setEdge(null);
  };

  const directionText = (d: ReadingDirection, fromSeries: boolean) =>
    `${t('reader.directionNotice', { direction: t(`reader.directions.${d}`) })}${fromSeries ? ` ${t('reader.fromSeries')}` : ''}`;
  useEffect(() => {
    show(directionText(direction.value, direction.fromSeries), 'bottom');
    // Once, when the book opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const setDirection = (value: ReadingDirection) => {
    setDirectionState({ value, fromSeries: false });
    saveWebReaderSettings({ readingDirection: value });
    show(directionText(value, false));
  };

  // Progress: every page the reader settles on, unless incognito.
  const saver = useProgressSaver<number>((p, opts) => patchReadProgress(book.id, p, opts), {
    enabled: !ctx.incognito,
    quietMs: PROGRESS_QUIET_MS,
  });
  const opened = useRef(page);
  useEffect(() => {
    if (page !== opened.current) {
      opened.current = -1;
      saver.save(page);
    }
  }, [page, saver]);

  // The URL follows the page (replacing the history entry), so a reload or the back button comes back to it.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (params.get('page') === String(page)) return;
      const next = new URLSearchParams(params);
      next.set('page', String(page));
      setParams(next, { replace: true, preventScrollReset: true });
    }, 250);
    return () => clearTimeout(timer);
  }, [page, params, setParams]);

  const layout = settings.paged.pageLayout;
  const spreads = useMemo(() => buildSpreads(pages, layout), [pages, layout]);
  const spreadIndex = spreadIndexOf(spreads, page);

  const leave = useCallback(
    (to: 'next' | 'previous' | 'exit') => {
      saver.flush();
      const target = to === 'next' ? props.next : to === 'previous' ? props.previous : null;
      navigate(target ? bookReaderPath(target, ctx) : exitPath(book, ctx));
    },
    [saver, props.next, props.previous, navigate, ctx, book],
  );

  const hitEdge = (which: 'end' | 'start') => {
    if (edge === which) {
      leave(which === 'end' ? 'next' : 'previous');
      return;
    }
    // Trying to go past the last page is finishing the book, even for a book of one page.
    if (which === 'end') saver.save(pagesCount);
    const neighbour = which === 'end' ? props.next : props.previous;
    const first = which === 'end' ? t('reader.endOfBook') : t('reader.startOfBook');
    const second =
      which === 'end'
        ? neighbour
          ? t('reader.againForNextBook')
          : t('reader.againToExit')
        : neighbour
          ? t('reader.againForPreviousBook')
          : t('reader.againToExitBack');
    show(`${first} ${second}`, 'top');
    setEdge(which);
  };

  const goToPage = (n: number) => {
    const target = Math.min(Math.max(1, n), pagesCount);
    setPage(target);
    setJump((j) => ({ page: target, seq: j.seq + 1 }));
    setEdge(null);
  };

  const move = (m: PageMove) => {
    if (m === 'first') return goToPage(1);
    if (m === 'last') return goToPage(pagesCount);
    if (continuous) {
      if (m === 'next') {
        if (atBottom()) hitEdge('end');
        else window.scrollBy({ top: window.innerHeight * 0.95, behavior: settings.animations ? 'smooth' : 'instant' });
      } else if (atTop()) hitEdge('start');
      else window.scrollBy({ top: -window.innerHeight * 0.95, behavior: settings.animations ? 'smooth' : 'instant' });
      return;
    }
    const target = m === 'next' ? spreadIndex + 1 : spreadIndex - 1;
    if (target >= spreads.length) return hitEdge('end');
    if (target < 0) return hitEdge('start');
    setEdge(null);
    setPage(spreadPage(spreads[target]!));
  };

  const onAction = (action: TapAction) => {
    if (action === 'toggleToolbars') setToolbars((v) => !v);
    else move(action);
  };

  const cycleScale = () => {
    if (continuous) {
      const scale = cycle(CONTINUOUS_SCALES, settings.continuous.scale);
      saveWebReaderSettings({ continuous: { scale } });
      show(t('reader.cyclingScale', { value: t(`reader.continuousScales.${scale}`) }));
    } else {
      const scale = cycle(PAGED_SCALES, settings.paged.scale);
      saveWebReaderSettings({ paged: { scale } });
      show(t('reader.cyclingScale', { value: t(`reader.scales.${scale}`) }));
    }
  };

  const toggleOverlay = (which: Exclude<Overlay, null>) => setOverlay((o) => (o === which ? null : which));

  // Keyboard (ui.md §11.6). Kept in a ref so the listener is attached once and always sees the current state.
  const lastEdgeKey = useRef(0);
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  onKey.current = (e: KeyboardEvent) => {
    if (e.defaultPrevented || isTypingTarget(e.target)) return;
    if (overlay) {
      // Dialogs handle their own keys (Esc closes them); their own shortcut closes them too.
      const own = { settings: 's', thumbnails: 't', help: 'h' }[overlay];
      if (e.key === own && !hasModifier(e)) setOverlay(null);
      return;
    }
    if (e.key === 'Escape') {
      if (toolbars) setToolbars(false);
      else leave('exit');
      return;
    }
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if (continuous) {
      const down = e.key === 'PageDown' || e.key === 'ArrowDown' || (e.key === ' ' && !e.shiftKey);
      const up = e.key === 'PageUp' || e.key === 'ArrowUp' || (e.key === ' ' && e.shiftKey);
      if ((down && atBottom()) || (up && atTop())) {
        e.preventDefault();
        if (Date.now() - lastEdgeKey.current < EDGE_KEY_THROTTLE_MS) return;
        lastEdgeKey.current = Date.now();
        hitEdge(down ? 'end' : 'start');
        return;
      }
      if (e.key === 'Home' || e.key === 'End') {
        e.preventDefault();
        move(e.key === 'Home' ? 'first' : 'last');
      }
    } else if (!e.shiftKey) {
      const m = pagedKeyMove(e.key, pagedDirection);
      if (m) {
        e.preventDefault();
        // Rendered at once, inside the key press, so the next page is in the very next frame.
        flushSync(() => move(m));
        return;
      }
    }
    if (hasModifier(e)) return;
    switch (e.key) {
      case 'l':
        return setDirection('LEFT_TO_RIGHT');
      case 'r':
        return setDirection('RIGHT_TO_LEFT');
      case 'v':
        return setDirection('VERTICAL');
      case 'w':
        return setDirection('WEBTOON');
      case 'c':
        return cycleScale();
      case 'f':
        return fullscreen.toggle();
      case 'd':
        if (!continuous) {
          const next = cycle(PAGE_LAYOUTS, settings.paged.pageLayout);
          saveWebReaderSettings({ paged: { pageLayout: next } });
          show(t('reader.cyclingLayout', { value: t(`reader.layouts.${next}`) }));
        }
        return;
      case 'p':
        if (continuous) {
          const padding = cycle(SIDE_PADDINGS, settings.continuous.padding);
          saveWebReaderSettings({ continuous: { padding } });
          show(
            t('reader.cyclingPadding', { value: padding ? t('reader.percent', { value: padding }) : t('reader.none') }),
          );
        }
        return;
      case 'n':
        if (continuous) {
          const margin = cycle(PAGE_MARGINS, settings.continuous.margin);
          saveWebReaderSettings({ continuous: { margin } });
          show(t('reader.cyclingMargin', { value: margin ? t('reader.pixels', { value: margin }) : t('reader.none') }));
        }
        return;
      case 'm':
        return setToolbars((v) => !v);
      case 's':
        return toggleOverlay('settings');
      case 't':
        return toggleOverlay('thumbnails');
      case 'h':
        return toggleOverlay('help');
    }
  };
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const onContinuousPage = useCallback((n: number) => {
    setPage(n);
    setEdge(null);
  }, []);

  const arrows = pagedArrowKeys(pagedDirection);
  const help: ShortcutSection[] = [
    {
      title: t('reader.helpNavigation'),
      shortcuts: continuous
        ? [
            { keys: ['ArrowDown', 'PageDown', ' '], description: t('reader.keyScrollDown') },
            { keys: ['ArrowUp', 'PageUp', ['Shift', ' ']], description: t('reader.keyScrollUp') },
            { keys: ['Home'], description: t('reader.keyFirstPage') },
            { keys: ['End'], description: t('reader.keyLastPage') },
          ]
        : [
            { keys: [arrows.next, 'PageDown'], description: t('reader.keyNextPage') },
            { keys: [arrows.previous, 'PageUp'], description: t('reader.keyPreviousPage') },
            { keys: ['Home'], description: t('reader.keyFirstPage') },
            { keys: ['End'], description: t('reader.keyLastPage') },
          ],
    },
    {
      title: t('reader.helpSettings'),
      shortcuts: [
        { keys: ['l'], description: t('reader.directions.LEFT_TO_RIGHT') },
        { keys: ['r'], description: t('reader.directions.RIGHT_TO_LEFT') },
        { keys: ['v'], description: t('reader.directions.VERTICAL') },
        { keys: ['w'], description: t('reader.directions.WEBTOON') },
        { keys: ['c'], description: t('reader.keyCycleScale') },
        ...(continuous
          ? [
              { keys: ['p'], description: t('reader.keyCyclePadding') },
              { keys: ['n'], description: t('reader.keyCycleMargin') },
            ]
          : [{ keys: ['d'], description: t('reader.keyCycleLayout') }]),
        { keys: ['f'], description: t('reader.fullscreen') },
      ],
    },
    {
      title: t('reader.helpMenus'),
      shortcuts: [
        { keys: ['m'], description: t('reader.keyToolbars') },
        { keys: ['s'], description: t('reader.settingsTitle') },
        { keys: ['t'], description: t('reader.explorerTitle') },
        { keys: ['h'], description: t('reader.shortcuts') },
        { keys: ['Escape'], description: t('reader.keyEscape') },
      ],
    },
  ];

  const background = BACKGROUND_COLORS[settings.background];
  return (
    <Box sx={{ bgcolor: background, minHeight: '100vh' }}>
      {continuous ? (
        <ContinuousView
          bookId={book.id}
          rendered={book.media.mediaProfile === 'PDF'}
          pages={pages}
          jump={jump}
          current={page}
          scale={settings.continuous.scale}
          padding={settings.continuous.padding}
          margin={settings.continuous.margin}
          background={background}
          onPageChange={onContinuousPage}
          onAction={onAction}
        />
      ) : (
        <PagedView
          bookId={book.id}
          rendered={book.media.mediaProfile === 'PDF'}
          pages={pages}
          spreads={spreads}
          current={spreadIndex}
          direction={pagedDirection}
          scale={settings.paged.scale}
          animations={settings.animations && !reducedMotion}
          swipe={settings.swipe}
          background={background}
          onAction={onAction}
        />
      )}
      <ReaderTopBar
        visible={toolbars}
        title={compactTitle(book)}
        incognito={ctx.incognito}
        fullscreen={fullscreen}
        onClose={() => leave('exit')}
        onHelp={() => setOverlay('help')}
        end={
          <>
            <Tooltip title={t('reader.settingsTitle')}>
              <IconButton onClick={() => setOverlay('settings')} aria-label={t('reader.settingsTitle')}>
                <SettingsIcon />
              </IconButton>
            </Tooltip>
            <PageMenu
              book={book}
              page={pages[page - 1]}
              readList={props.readList}
              onMessage={(text, severity) => show(text, 'center', severity)}
            />
          </>
        }
      >
        <Tooltip title={t('reader.explorerTitle')}>
          <IconButton onClick={() => setOverlay('thumbnails')} aria-label={t('reader.explorerTitle')}>
            <GridViewIcon />
          </IconButton>
        </Tooltip>
      </ReaderTopBar>
      <DivinaBottomBar
        visible={toolbars}
        page={page}
        pagesCount={pagesCount}
        rtl={direction.value === 'RIGHT_TO_LEFT'}
        hasPrevious={!!props.previous}
        hasNext={!!props.next}
        onPage={goToPage}
        onPreviousBook={() => leave('previous')}
        onNextBook={() => leave('next')}
      />
      <DivinaSettings
        open={overlay === 'settings'}
        onClose={() => setOverlay(null)}
        settings={settings}
        direction={direction.value}
        directionFromSeries={direction.fromSeries}
        onDirection={setDirection}
        fullscreenSupported={fullscreen.supported}
        onAlwaysFullscreen={(on) => {
          saveWebReaderSettings({ alwaysFullscreen: on });
          if (on && !fullscreen.active) fullscreen.toggle();
        }}
      />
      <ThumbnailExplorer
        open={overlay === 'thumbnails'}
        bookId={book.id}
        pagesCount={pagesCount}
        current={page}
        onClose={() => setOverlay(null)}
        onPick={(n) => {
          setOverlay(null);
          goToPage(n);
        }}
      />
      <ShortcutHelp open={overlay === 'help'} onClose={() => setOverlay(null)} sections={help} />
      <ReaderNotice notice={notice} onClose={closeNotice} />
    </Box>
  );
}
