import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Slide from '@mui/material/Slide';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import SettingsIcon from '@mui/icons-material/Settings';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import SkipPreviousIcon from '@mui/icons-material/SkipPrevious';
import TocIcon from '@mui/icons-material/Toc';
import { useQuery } from '@tanstack/react-query';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { EpubNavigator, EpubPreferences, type EpubNavigatorListeners } from '@readium/navigator';
import { Link, type Locator } from '@readium/shared';
import type { BookDto, ReadListDto } from '@quire/api';
import type { EpubReaderPreferences } from '../../../app/preferences';
import { usePageTitle } from '../../../app/usePageTitle';
import {
  fetchManifest,
  fetchPositions,
  fetchProgression,
  putProgression,
  readerKeys,
  resourceBaseUrl,
  useFontFamilies,
  type R2PositionsDto,
  type R2ProgressionDto,
  type WPPublicationDto,
} from '../../../api/reader';
import { hasModifier, isTypingTarget } from '../controls';
import { ReaderLoading, ReaderNotice, ReaderProblem, useReaderDocument, type Notice } from '../ReaderFrame';
import { ReaderTopBar } from '../ReaderTopBar';
import { bookReaderPath, compactTitle, exitPath, readingContext, useReaderBook, type ReadingContext } from '../session';
import {
  EPUB_APPEARANCES,
  EPUB_COLUMNS,
  EPUB_FONT_SIZE,
  cycle,
  saveEpubReaderSettings,
  saveWebReaderSettings,
  useEpubReaderSettings,
  useWebReaderSettings,
} from '../settings';
import { ShortcutHelp, type ShortcutSection } from '../ShortcutHelp';
import { useFullscreen, type Fullscreen } from '../useFullscreen';
import { useProgressSaver } from '../useProgressSaver';
import { EpubSettings } from './EpubSettings';
import { injectFontCss, isGenericFont, loadServerFontCss } from './fonts';
import {
  APPEARANCES,
  currentEntry,
  flattenToc,
  navigatorPreferences,
  progressionLocator,
  readiumManifestJson,
  toPositions,
  toProgression,
  toPublication,
  type TocEntry,
} from './publication';
import { TocDrawer, type TocKind } from './TocDrawer';

/** Quiet time before a position is saved: turning pages quickly sends one request. */
const PROGRESSION_QUIET_MS = 500;
/** Height of the page footer of the paginated layout. */
const FOOTER_HEIGHT = 28;

/** `/book/:bookId/read-epub`: the EPUB reader, on the Readium navigator fed by the server's manifest (ui.md §11.7). */
export function EpubReader() {
  const { bookId = '' } = useParams();
  const web = useWebReaderSettings();
  const fullscreen = useFullscreen(web.alwaysFullscreen);
  return <EpubBook key={bookId} bookId={bookId} fullscreen={fullscreen} alwaysFullscreen={web.alwaysFullscreen} />;
}

interface EpubData {
  manifest: WPPublicationDto;
  positions: R2PositionsDto;
  progression: R2ProgressionDto | null;
  /** The saved position could not be read (the book then opens at its start). */
  progressionFailed: boolean;
}

function EpubBook(props: { bookId: string; fullscreen: Fullscreen; alwaysFullscreen: boolean }) {
  const { bookId } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [ctx] = useState(() => readingContext(params));
  const loaded = useReaderBook(bookId, ctx);
  const data = useQuery({
    queryKey: readerKeys.epub(bookId),
    queryFn: async (): Promise<EpubData> => {
      const [manifest, positions, progression] = await Promise.all([
        fetchManifest(bookId),
        fetchPositions(bookId),
        fetchProgression(bookId).then(
          (p) => ({ p, failed: false }),
          () => ({ p: null, failed: true }),
        ),
      ]);
      return { manifest, positions, progression: progression.p, progressionFailed: progression.failed };
    },
    // The saved position may have moved on another device since: always ask again.
    staleTime: 0,
    gcTime: 0,
  });
  const book = loaded.book;
  usePageTitle(
    book ? (loaded.readList ? `${loaded.readList.name} - ${book.metadata.title}` : compactTitle(book)) : null,
  );

  const close = () => navigate(book ? exitPath(book, ctx) : '/');
  if (loaded.isError)
    return <ReaderProblem error={loaded.error} onClose={close} onRetry={() => void loaded.refetch()} />;
  if (book && book.media.status !== 'READY') return <ReaderProblem message={t('reader.notReady')} onClose={close} />;
  if (data.isError) return <ReaderProblem error={data.error} onClose={close} onRetry={() => void data.refetch()} />;
  if (!book || !data.data) return <ReaderLoading />;
  if (!readable(data.data.manifest, book.id)) {
    return <ReaderProblem message={t('reader.epub.unreadable')} onClose={close} />;
  }
  return (
    <EpubSession
      book={book}
      readList={loaded.readList}
      next={loaded.next}
      previous={loaded.previous}
      data={data.data}
      ctx={ctx}
      fullscreen={props.fullscreen}
      alwaysFullscreen={props.alwaysFullscreen}
    />
  );
}

interface EpubSessionProps {
  book: BookDto;
  readList: ReadListDto | undefined;
  next: BookDto | null | undefined;
  previous: BookDto | null | undefined;
  data: EpubData;
  ctx: ReadingContext;
  fullscreen: Fullscreen;
  alwaysFullscreen: boolean;
}

type Overlay = 'settings' | 'toc' | 'help' | null;

function EpubSession(props: EpubSessionProps) {
  const { book, data, ctx, fullscreen } = props;
  const { t } = useTranslation();
  const theme = useTheme();
  const navigate = useNavigate();
  const stored = useEpubReaderSettings();
  const fonts = useFontFamilies();
  const serverFonts = useMemo(() => fonts.data ?? [], [fonts.data]);
  // A server family the server no longer offers reads as the publisher's font; the stored choice is kept for
  // the day the family comes back.
  const chosenFont = stored.fontFamily;
  const fontFamily =
    chosenFont && (isGenericFont(chosenFont) || fonts.isPending || serverFonts.includes(chosenFont))
      ? chosenFont
      : null;
  const settings = useMemo(
    () => (fontFamily === stored.fontFamily ? stored : { ...stored, fontFamily }),
    [stored, fontFamily],
  );
  const serverFamily = fontFamily && serverFonts.includes(fontFamily) ? fontFamily : null;
  const fontCss = useQuery({
    queryKey: [...readerKeys.fonts(), 'css', serverFamily],
    queryFn: () => loadServerFontCss(serverFamily ?? ''),
    enabled: serverFamily !== null,
    // The CSS points at blob: URLs made for this page: they live as long as it does.
    staleTime: Infinity,
    gcTime: Infinity,
    retry: 1,
  });
  const container = useRef<HTMLDivElement>(null);
  const nav = useRef<EpubNavigator | null>(null);
  const [locator, setLocator] = useState<Locator | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  /** The navigator that finished loading (settings can only be applied to a loaded one). */
  const [loadedNav, setLoadedNav] = useState<EpubNavigator | null>(null);
  const [toolbars, setToolbars] = useState(false);
  const [overlay, setOverlay] = useState<Overlay>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const noticeSeq = useRef(0);
  const show = useCallback((text: string, position: Notice['position'] = 'center') => {
    noticeSeq.current += 1;
    setNotice({ text, key: noticeSeq.current, position });
  }, []);

  const base = useMemo(() => resourceBaseUrl(book.id), [book.id]);
  const rendition = (data.manifest.metadata.rendition as { layout?: string } | undefined)?.layout;
  const fixedLayout = rendition === 'fixed';
  const scroll = !fixedLayout && settings.layout === 'scroll';
  useReaderDocument(false);

  // Readium needs the direction when the publication is built: a new direction builds a new one.
  const direction = fixedLayout ? settings.direction : 'auto';
  const pub = useMemo(() => toPublication(data.manifest, base, direction), [data.manifest, base, direction]);
  const positions = useMemo(() => toPositions(pub, data.positions), [pub, data.positions]);
  const readingOrder = useMemo(() => pub.readingOrder.items.map((l) => l.href), [pub]);
  const tocLists = useMemo(() => {
    const json = readiumManifestJson(data.manifest, base, 'auto') as Record<string, TocEntry[] | undefined>;
    return {
      toc: flattenToc(json.toc ?? []),
      landmarks: flattenToc(json.landmarks ?? []),
      pageList: flattenToc(json.pageList ?? []),
    } satisfies Record<TocKind, TocEntry[]>;
  }, [data.manifest, base]);

  // Progress (PUT /progression) on every position the reader settles on, unless incognito.
  const saver = useProgressSaver<Locator>((l, opts) => putProgression(book.id, toProgression(l), opts), {
    enabled: !props.ctx.incognito,
    quietMs: PROGRESSION_QUIET_MS,
  });
  const restored = useMemo(() => progressionLocator(pub, data.progression), [pub, data.progression]);
  /** Where to open the navigator: the last position of this session (a rebuilt navigator), else the saved one. */
  const lastPosition = useRef<Locator | undefined>(restored);

  useEffect(() => {
    if (data.progressionFailed) show(t('reader.epub.progressionFailed'), 'bottom');
  }, [data.progressionFailed, show, t]);

  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  /** The server family to declare in the book's frames, once its CSS is ready. */
  const fontReady = useMemo(
    () => (serverFamily && fontCss.data ? { family: serverFamily, css: fontCss.data } : null),
    [serverFamily, fontCss.data],
  );
  const frameFont = useRef(fontReady);
  frameFont.current = fontReady;
  /** The preferences the navigator has, as JSON. */
  const applied = useRef('');
  const onKeyRef = useRef<(e: KeyboardEvent) => void>(() => undefined);
  const onPointerRef = useRef<(x: number, y: number) => void>(() => undefined);

  // One navigator per publication.
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const hooked = new WeakSet<Window>();
    let first = true;
    const listeners: EpubNavigatorListeners = {
      frameLoaded: (wnd) => {
        injectFontCss(wnd, frameFont.current);
        if (hooked.has(wnd)) return;
        hooked.add(wnd);
        wnd.addEventListener('keydown', (e) => onKeyRef.current(e));
      },
      positionChanged: (l) => {
        lastPosition.current = l;
        setLocator(l);
        // The navigator reports where it opened: that is the saved position, not a new one.
        if (first) {
          first = false;
          if (restored && l.href === restored.href) return;
        }
        saver.save(l);
      },
      tap: (e) => pointer(e),
      click: (e) => pointer(e),
      zoom: () => undefined,
      miscPointer: () => undefined,
      scroll: () => undefined,
      customEvent: () => undefined,
      handleLocator: (l) => {
        if (/^(https?:|mailto:|tel:)/.test(l.href)) window.open(l.href, '_blank', 'noopener,noreferrer');
        return true;
      },
      textSelected: () => undefined,
    };
    const pointer = (e: { x: number; y: number }) => {
      const frames = navigator._cframes.filter((f) => !!f);
      const ratio = window.devicePixelRatio || 1;
      const width = frames.reduce((w, f) => w + (f!.iframe.contentWindow?.innerWidth ?? 0), 0) * ratio;
      const height = (frames[0]?.iframe.contentWindow?.innerHeight ?? 1) * ratio;
      onPointerRef.current(width ? e.x / width : 0.5, height ? e.y / height : 0.5);
      return true;
    };
    const preferences = navigatorPreferences(settingsRef.current, fixedLayout);
    applied.current = JSON.stringify(preferences);
    // The navigator shows each chapter as a same-origin blob: document, which inherits this page's
    // Content-Security-Policy: none of the book's own scripts runs there (docs/architecture.md, "Security
    // headers, and what a book may do").
    const navigator = new EpubNavigator(el, pub, listeners, positions, lastPosition.current, {
      preferences,
      defaults: {},
    });
    nav.current = navigator;
    let live = true;
    navigator.load().then(
      () => live && setLoadedNav(navigator),
      (e: unknown) => live && setFailure(e),
    );
    return () => {
      live = false;
      nav.current = null;
      setLoadedNav(null);
      void navigator.destroy();
    };
    // The navigator is rebuilt for a new publication only; settings reach it through submitPreferences.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pub, positions]);

  // Settings changed while reading reach the loaded navigator (it was built with the settings of its time).
  useEffect(() => {
    if (!loadedNav) return;
    const prefs = navigatorPreferences(settings, fixedLayout);
    const key = JSON.stringify(prefs);
    if (key !== applied.current) {
      applied.current = key;
      void loadedNav.submitPreferences(new EpubPreferences(prefs));
    }
  }, [loadedNav, settings, fixedLayout]);

  // The family's faces reach every frame, the ones kept ready beside the current one included.
  useEffect(() => {
    container.current?.querySelectorAll('iframe').forEach((frame) => {
      if (frame.contentWindow) injectFontCss(frame.contentWindow, fontReady);
    });
  }, [loadedNav, fontReady]);

  useEffect(() => {
    if (fontCss.isError && serverFamily) show(t('reader.epub.fontFailed', { family: serverFamily }), 'bottom');
  }, [fontCss.isError, serverFamily, show, t]);

  const leave = useCallback(
    (to: 'next' | 'previous' | 'exit') => {
      saver.flush();
      const target = to === 'next' ? props.next : to === 'previous' ? props.previous : null;
      navigate(target ? bookReaderPath(target, ctx) : exitPath(book, ctx));
    },
    [saver, props.next, props.previous, navigate, ctx, book],
  );

  const clickTurns = settings.navigation !== 'buttons';
  onPointerRef.current = (x, y) => {
    const navigator = nav.current;
    if (!navigator) return;
    if (clickTurns && scroll) {
      if (y < 0.25) return navigator.goBackward(false, () => undefined);
      if (y > 0.75) return navigator.goForward(false, () => undefined);
    } else if (clickTurns) {
      if (x < 0.25) return navigator.goLeft(false, () => undefined);
      if (x > 0.75) return navigator.goRight(false, () => undefined);
    }
    setToolbars((v) => !v);
  };

  const toggleOverlay = (which: Exclude<Overlay, null>) => setOverlay((o) => (o === which ? null : which));
  const saveSetting = (patch: Partial<EpubReaderPreferences>, message?: string) => {
    saveEpubReaderSettings(patch);
    if (message) show(message);
  };

  onKeyRef.current = (e: KeyboardEvent) => {
    if (e.defaultPrevented || isTypingTarget(e.target)) return;
    const navigator = nav.current;
    if (overlay) {
      const own = { settings: 's', toc: 't', help: 'h' }[overlay];
      if (e.key === own && !hasModifier(e)) setOverlay(null);
      return;
    }
    if (e.key === 'Escape') {
      if (toolbars) setToolbars(false);
      else leave('exit');
      return;
    }
    if (navigator && e.key === ' ' && e.ctrlKey && !scroll) {
      e.preventDefault();
      return navigator.goBackward(false, () => undefined);
    }
    if (!navigator || e.ctrlKey || e.altKey || e.metaKey) return;
    const done = () => e.preventDefault();
    switch (e.key) {
      case 'ArrowLeft':
        if (scroll) return;
        done();
        return navigator.goLeft(false, () => undefined);
      case 'ArrowRight':
        if (scroll) return;
        done();
        return navigator.goRight(false, () => undefined);
      case ' ':
        if (scroll) return;
        done();
        return e.shiftKey ? navigator.goBackward(false, () => undefined) : navigator.goForward(false, () => undefined);
      case 'PageDown':
        done();
        return navigator.goForward(false, () => undefined);
      case 'PageUp':
        done();
        return navigator.goBackward(false, () => undefined);
    }
    if (e.shiftKey && e.key !== '+') return;
    switch (e.key) {
      case 'p':
        if (fixedLayout) return;
        if (scroll) return saveSetting({ layout: 'paginated', columns: 'auto' }, t('reader.epub.layouts.paginated'));
        {
          const columns = cycle(EPUB_COLUMNS, settings.columns);
          return saveSetting({ columns }, `${t('reader.epub.columns')}: ${t(`reader.epub.columnOptions.${columns}`)}`);
        }
      case 'a': {
        const appearance = cycle(EPUB_APPEARANCES, settings.appearance);
        return saveSetting({ appearance }, t(`reader.epub.appearances.${appearance}`));
      }
      case '+':
      case '=':
        return saveSetting(
          { fontSize: Math.min(EPUB_FONT_SIZE.max, settings.fontSize + EPUB_FONT_SIZE.step) },
          t('reader.percent', { value: Math.min(EPUB_FONT_SIZE.max, settings.fontSize + EPUB_FONT_SIZE.step) }),
        );
      case '-':
        return saveSetting(
          { fontSize: Math.max(EPUB_FONT_SIZE.min, settings.fontSize - EPUB_FONT_SIZE.step) },
          t('reader.percent', { value: Math.max(EPUB_FONT_SIZE.min, settings.fontSize - EPUB_FONT_SIZE.step) }),
        );
      case 'v':
        if (!fixedLayout) saveSetting({ layout: 'scroll' }, t('reader.epub.layouts.scroll'));
        return;
      case 'f':
        return fullscreen.toggle();
      case 'm':
        return setToolbars((v) => !v);
      case 's':
        return toggleOverlay('settings');
      case 't':
        return toggleOverlay('toc');
      case 'h':
        return toggleOverlay('help');
    }
  };
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKeyRef.current(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const total = data.positions.total;
  const position = locator?.locations.position;
  const percent = Math.round((locator?.locations.totalProgression ?? 0) * 100);
  const chapter = useMemo(() => {
    if (!locator) return undefined;
    return tocLists.toc[currentEntry(tocLists.toc, readingOrder, locator.href)]?.title ?? locator.title;
  }, [locator, tocLists.toc, readingOrder]);

  const colours = APPEARANCES[settings.appearance];
  const buttons = settings.navigation !== 'click';
  const rtlBook = pub.metadata.effectiveReadingProgression === 'rtl';
  const help: ShortcutSection[] = [
    {
      title: t('reader.helpNavigation'),
      shortcuts: [
        { keys: [rtlBook ? 'ArrowLeft' : 'ArrowRight', 'PageDown', ' '], description: t('reader.keyNextPage') },
        {
          keys: [rtlBook ? 'ArrowRight' : 'ArrowLeft', 'PageUp', ['Shift', ' '], ['Control', ' ']],
          description: t('reader.keyPreviousPage'),
        },
      ],
    },
    {
      title: t('reader.helpSettings'),
      shortcuts: [
        { keys: ['p'], description: t('reader.epub.keyPagination') },
        { keys: ['v'], description: t('reader.epub.layouts.scroll') },
        { keys: ['a'], description: t('reader.epub.keyAppearance') },
        { keys: ['+', '='], description: t('reader.epub.largerText') },
        { keys: ['-'], description: t('reader.epub.smallerText') },
        { keys: ['f'], description: t('reader.fullscreen') },
      ],
    },
    {
      title: t('reader.helpMenus'),
      shortcuts: [
        { keys: ['m'], description: t('reader.keyToolbars') },
        { keys: ['s'], description: t('reader.settingsTitle') },
        { keys: ['t'], description: t('reader.epub.contents') },
        { keys: ['h'], description: t('reader.shortcuts') },
        { keys: ['Escape'], description: t('reader.keyEscape') },
      ],
    },
  ];

  if (failure) return <ReaderProblem message={t('reader.epub.unreadable')} onClose={() => leave('exit')} />;
  const hasToc = tocLists.toc.length + tocLists.landmarks.length + tocLists.pageList.length > 0;
  const sideButton = {
    position: 'fixed',
    top: '50%',
    transform: 'translateY(-50%)',
    zIndex: 2,
    color: colours.text,
    opacity: 0.6,
  } as const;
  return (
    <Box sx={{ position: 'fixed', inset: 0, bgcolor: colours.background }}>
      <Box
        ref={container}
        data-testid="epub-reader"
        dir="ltr"
        onClick={(e) => {
          // Around the book's frame (its margins): only the toolbars.
          if (e.target === e.currentTarget) setToolbars((v) => !v);
        }}
        sx={{
          position: 'absolute',
          top: 0,
          left: 0,
          right: 0,
          mx: 'auto',
          bottom: scroll ? 0 : `${FOOTER_HEIGHT}px`,
          overflow: 'hidden',
          // The navigator sizes fixed-layout frames itself; reflowable ones fill the area.
          '& .readium-navigator-iframe': { border: 0, width: '100%', height: '100%' },
        }}
      />
      {!locator && !failure && (
        <Box sx={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}>
          <ReaderLoading />
        </Box>
      )}
      {!scroll && locator && (
        <Box
          aria-live="polite"
          data-testid="epub-footer"
          sx={{
            position: 'absolute',
            left: 0,
            right: 0,
            bottom: 0,
            height: FOOTER_HEIGHT,
            px: 2,
            display: 'flex',
            alignItems: 'center',
            gap: 2,
            color: colours.text,
            opacity: 0.7,
            fontSize: 13,
          }}
        >
          <Typography variant="caption" noWrap sx={{ flex: 1 }}>
            {position
              ? t('reader.epub.pageOfChapter', {
                  page: position,
                  count: total,
                  chapter: chapter || t('reader.epub.currentChapter'),
                })
              : (chapter ?? '')}
          </Typography>
          <Typography variant="caption">{t('reader.percent', { value: percent })}</Typography>
        </Box>
      )}
      {buttons && locator && (
        <>
          <IconButton
            onClick={() =>
              scroll ? nav.current?.goBackward(false, () => undefined) : nav.current?.goLeft(false, () => undefined)
            }
            aria-label={scroll || !rtlBook ? t('reader.keyPreviousPage') : t('reader.keyNextPage')}
            sx={{ ...sideButton, left: 4 }}
          >
            {scroll ? <KeyboardArrowUpIcon /> : <ChevronLeftIcon />}
          </IconButton>
          <IconButton
            onClick={() =>
              scroll ? nav.current?.goForward(false, () => undefined) : nav.current?.goRight(false, () => undefined)
            }
            aria-label={scroll || !rtlBook ? t('reader.keyNextPage') : t('reader.keyPreviousPage')}
            sx={{ ...sideButton, right: 4 }}
          >
            {scroll ? <KeyboardArrowDownIcon /> : <ChevronRightIcon />}
          </IconButton>
        </>
      )}
      <ReaderTopBar
        visible={toolbars}
        title={compactTitle(book)}
        incognito={ctx.incognito}
        fullscreen={fullscreen}
        onClose={() => leave('exit')}
        onHelp={() => setOverlay('help')}
        end={
          <Tooltip title={t('reader.settingsTitle')}>
            <IconButton onClick={() => setOverlay('settings')} aria-label={t('reader.settingsTitle')}>
              <SettingsIcon />
            </IconButton>
          </Tooltip>
        }
      >
        <Tooltip title={t('reader.epub.contents')}>
          <span>
            <IconButton onClick={() => setOverlay('toc')} disabled={!hasToc} aria-label={t('reader.epub.contents')}>
              <TocIcon />
            </IconButton>
          </span>
        </Tooltip>
      </ReaderTopBar>
      <Slide appear={false} direction="up" in={toolbars} mountOnEnter unmountOnExit>
        <AppBar
          // A footer: the top bar is the page's one banner (axe: landmark-no-duplicate-banner).
          component="footer"
          position="fixed"
          color="default"
          elevation={2}
          aria-hidden={!toolbars}
          sx={{ top: 'auto', bottom: 0, bgcolor: theme.palette.background.paper }}
        >
          <Toolbar variant="dense" sx={{ gap: 1 }}>
            <Tooltip title={t('reader.previousBook')}>
              <span>
                <IconButton
                  onClick={() => leave('previous')}
                  disabled={!props.previous}
                  aria-label={t('reader.previousBook')}
                >
                  <SkipPreviousIcon />
                </IconButton>
              </span>
            </Tooltip>
            <Typography variant="body2" sx={{ flex: 1, textAlign: 'center' }}>
              {position ? t('reader.pageOf', { page: position, count: total }) : ''}
              {' · '}
              {t('reader.percent', { value: percent })}
            </Typography>
            <Tooltip title={t('reader.nextBook')}>
              <span>
                <IconButton onClick={() => leave('next')} aria-label={t('reader.nextBook')}>
                  <SkipNextIcon />
                </IconButton>
              </span>
            </Tooltip>
          </Toolbar>
        </AppBar>
      </Slide>
      <TocDrawer
        open={overlay === 'toc'}
        onClose={() => setOverlay(null)}
        lists={tocLists}
        readingOrder={readingOrder}
        currentHref={locator?.href}
        onPick={(href) => {
          setOverlay(null);
          nav.current?.goLink(new Link({ href }), false, () => undefined);
        }}
      />
      <EpubSettings
        open={overlay === 'settings'}
        onClose={() => setOverlay(null)}
        settings={settings}
        fixedLayout={fixedLayout}
        serverFonts={serverFonts}
        alwaysFullscreen={props.alwaysFullscreen}
        fullscreenSupported={fullscreen.supported}
        onAlwaysFullscreen={(on) => {
          saveWebReaderSettings({ alwaysFullscreen: on });
          if (on && !fullscreen.active) fullscreen.toggle();
        }}
      />
      <ShortcutHelp open={overlay === 'help'} onClose={() => setOverlay(null)} sections={help} />
      <ReaderNotice notice={notice} onClose={() => setNotice(null)} />
    </Box>
  );
}

/** Whether Readium can read the manifest (an EPUB without a usable reading order cannot be shown). */
function readable(manifest: WPPublicationDto, bookId: string): boolean {
  try {
    return toPublication(manifest, resourceBaseUrl(bookId), 'auto').readingOrder.items.length > 0;
  } catch {
    return false;
  }
}
