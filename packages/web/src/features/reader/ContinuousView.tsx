import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import Box from '@mui/material/Box';
import type { ContinuousScale } from '../../app/preferences';
import type { BookPageDto } from '../../api/reader';
import { continuousTapAction, type TapAction } from './controls';
import { PageImage } from './PageImage';

/** Pages this close to the current one load even before they come near the screen. */
const EAGER_DISTANCE = 2;
/** Width / height assumed for a page without dimensions when no page of the book has any. */
const FALLBACK_RATIO = 2 / 3;

export interface ContinuousViewProps {
  bookId: string;
  /** The server renders the pages (PDF): they are asked for at the width they are drawn at. */
  rendered: boolean;
  pages: readonly BookPageDto[];
  /** A page asked for by the slider, explorer, Home and End; a new object is a new jump (`seq` repeats one). */
  jump: { page: number; seq: number };
  current: number;
  scale: ContinuousScale;
  /** Side padding, percent of the width on each side. */
  padding: number;
  /** Space between pages, px. */
  margin: number;
  background: string;
  onPageChange: (page: number) => void;
  onAction: (action: TapAction) => void;
}

export const atTop = () => window.scrollY <= 1;
export const atBottom = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The continuous (webtoon) reader (ui.md §11.3): every page stacked in the window's own scroll. Each page box gets
 * its size from the analysed dimensions before its image arrives (a page without them takes the book's usual
 * proportions), so the scroll position never jumps; images load as they come near the screen and stay loaded. The
 * current page is the one across the middle of the screen (the last one at the very bottom).
 */
export function ContinuousView(props: ContinuousViewProps) {
  const { pages, onPageChange } = props;
  const boxes = useRef<(HTMLDivElement | null)[]>([]);
  const [seen, setSeen] = useState<ReadonlySet<number>>(() => new Set([1]));
  const [measured, setMeasured] = useState<ReadonlyMap<number, number>>(() => new Map());

  const usualRatio = useMemo(
    () => median(pages.filter((p) => p.width && p.height).map((p) => p.width! / p.height!)) ?? FALLBACK_RATIO,
    [pages],
  );

  // The current page, from the scroll position, at most once per frame.
  const reported = useRef(props.current);
  useEffect(() => {
    let frame = 0;
    const locate = () => {
      frame = 0;
      const list = boxes.current;
      let page: number;
      if (atBottom()) page = pages.length;
      else {
        const middle = window.innerHeight / 2;
        let low = 0;
        let high = pages.length - 1;
        while (low < high) {
          const mid = (low + high + 1) >> 1;
          const top = list[mid]?.getBoundingClientRect().top ?? Infinity;
          if (top <= middle) low = mid;
          else high = mid - 1;
        }
        page = low + 1;
      }
      if (page !== reported.current) {
        reported.current = page;
        onPageChange(page);
      }
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(locate);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [pages.length, onPageChange]);

  // Pages coming within a screen and a half load; once loaded, they stay.
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        const near = entries.filter((e) => e.isIntersecting).map((e) => Number((e.target as HTMLElement).dataset.page));
        if (near.length) setSeen((s) => (near.every((n) => s.has(n)) ? s : new Set([...s, ...near])));
      },
      { rootMargin: '150% 0px' },
    );
    boxes.current.forEach((el) => el && observer.observe(el));
    return () => observer.disconnect();
  }, [pages.length]);

  // Jumps are instant: the box of the page is already where it will be. The view opens on the current page (the
  // reader may come from the paged view); later jumps go where they are asked to.
  const opened = useRef(false);
  useLayoutEffect(() => {
    const target = opened.current ? props.jump.page : props.current;
    opened.current = true;
    const el = boxes.current[target - 1];
    if (!el) return;
    reported.current = target;
    window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY, behavior: 'instant' });
    // props.current is read on the first run only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.jump]);

  const refs = useMemo(
    () =>
      Array.from({ length: pages.length }, (_, i) => (el: HTMLDivElement | null) => {
        boxes.current[i] = el;
      }),
    [pages.length],
  );

  const onMeasured = useCallback((page: number, ratio: number) => {
    setMeasured((m) => (m.get(page) === ratio ? m : new Map(m).set(page, ratio)));
  }, []);

  const onClick = (e: MouseEvent) => props.onAction(continuousTapAction(e.clientY / window.innerHeight));

  const fit = props.scale === 'width';
  // the device pixels across a page fitted to the width (the padding is a share of the window on each side)
  const fittedWidth = Math.ceil(
    ((window.innerWidth * (100 - 2 * props.padding)) / 100) * (window.devicePixelRatio || 1),
  );
  return (
    <Box
      dir="ltr"
      data-testid="continuous-reader"
      onClick={onClick}
      sx={{ bgcolor: props.background, minHeight: '100vh', userSelect: 'none', overflowAnchor: 'auto' }}
    >
      {pages.map((page, i) => {
        const known = page.width && page.height ? page.width / page.height : null;
        const ratio = known ?? measured.get(page.number) ?? usualRatio;
        const load = seen.has(page.number) || Math.abs(page.number - props.current) <= EAGER_DISTANCE;
        return (
          <ContinuousPage
            key={page.number}
            ref={refs[i]!}
            bookId={props.bookId}
            page={page}
            ratio={ratio}
            width={fit || !page.width ? `${100 - 2 * props.padding}%` : `${page.width}px`}
            renderWidth={props.rendered && (fit || !page.width) ? fittedWidth : undefined}
            marginTop={i === 0 ? 0 : props.margin}
            load={load}
            onMeasured={known ? undefined : onMeasured}
          />
        );
      })}
    </Box>
  );
}

interface ContinuousPageProps {
  ref: (el: HTMLDivElement | null) => void;
  bookId: string;
  page: BookPageDto;
  ratio: number;
  width: string;
  /** For a page the server renders: the device pixels it is drawn across (none at its own size). */
  renderWidth?: number;
  marginTop: number;
  load: boolean;
  onMeasured?: (page: number, ratio: number) => void;
}

const ContinuousPage = memo(function ContinuousPage(props: ContinuousPageProps) {
  const { page, onMeasured } = props;
  return (
    <div
      ref={props.ref}
      data-page={page.number}
      id={`page-${page.number}`}
      style={{
        width: props.width,
        maxWidth: props.width.endsWith('%') ? undefined : 'none',
        aspectRatio: String(props.ratio),
        margin: `${props.marginTop}px auto 0`,
      }}
      onLoadCapture={(e) => {
        const img = e.target as HTMLImageElement;
        if (onMeasured && img.naturalWidth && img.naturalHeight)
          onMeasured(page.number, img.naturalWidth / img.naturalHeight);
      }}
    >
      <PageImage
        bookId={props.bookId}
        page={page}
        entry={page}
        load={props.load}
        width={props.renderWidth}
        style={{ display: 'block', width: '100%', height: '100%' }}
      />
    </div>
  );
});
