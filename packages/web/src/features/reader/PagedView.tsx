import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import Box from '@mui/material/Box';
import type { PagedScale } from '../../app/preferences';
import type { BookPageDto } from '../../api/reader';
import { pagedTapAction, swipeMove, type PagedDirection, type TapAction } from './controls';
import { PageImage } from './PageImage';
import { isBlank, type Spread, type SpreadPage } from './spreads';

/** Slides this far from the current one are in the page, their images loading and decoding ahead of time. */
export const PRELOAD_DISTANCE = 2;
const TRANSITION = 'transform 220ms cubic-bezier(0.2, 0, 0, 1)';

export interface PagedViewProps {
  bookId: string;
  /** The server renders the pages (PDF): they are asked for at the width they are drawn at. */
  rendered: boolean;
  pages: readonly BookPageDto[];
  spreads: readonly Spread[];
  current: number;
  direction: PagedDirection;
  scale: PagedScale;
  animations: boolean;
  swipe: boolean;
  background: string;
  onAction: (action: TapAction) => void;
}

/** CSS of one image of a slide of `count` pages, in position `index` (0 first in reading order). */
function imageStyle(scale: PagedScale, count: number, index: number, direction: PagedDirection): CSSProperties {
  const share = `${100 / count}%`;
  const base: CSSProperties = { display: 'block', flex: 'none', userSelect: 'none' };
  switch (scale) {
    case 'screen': {
      // Two pages meet at the spine: each is pushed towards the other inside its half.
      const towardsSpine =
        count === 1 ? 'center' : (index === 0) === (direction === 'RIGHT_TO_LEFT') ? 'left center' : 'right center';
      return { ...base, width: share, height: '100%', objectFit: 'contain', objectPosition: towardsSpine };
    }
    case 'width':
      return { ...base, width: share, height: 'auto' };
    case 'width-shrink':
      return { ...base, maxWidth: share, width: 'auto', height: 'auto' };
    case 'height':
      return { ...base, height: '100%', width: 'auto' };
    case 'original':
      return { ...base, width: 'auto', height: 'auto' };
  }
}

/**
 * The width in device pixels a page of a slide of `count` pages is drawn at with `scale` in this window, or undefined
 * when it is drawn at its own size.
 */
function drawnWidth(scale: PagedScale, count: number, page: SpreadPage): number | undefined {
  if (scale === 'original' || !page.width || !page.height) return undefined;
  const boxWidth = window.innerWidth / count;
  const byHeight = (window.innerHeight * page.width) / page.height;
  const css = scale === 'screen' ? Math.min(boxWidth, byHeight) : scale === 'height' ? byHeight : boxWidth;
  return Math.ceil(css * (window.devicePixelRatio || 1));
}

interface SlideProps {
  bookId: string;
  rendered: boolean;
  load: boolean;
  onSettled: (page: number) => void;
  spread: Spread;
  entries: ReadonlyMap<number, BookPageDto>;
  offset: number;
  direction: PagedDirection;
  scale: PagedScale;
  animate: boolean;
}

const Slide = memo(function Slide(props: SlideProps) {
  const { bookId, spread, entries, offset, direction, scale, animate } = props;
  const ref = useRef<HTMLDivElement>(null);
  const isCurrent = offset === 0;
  // A page turn starts at the top of the new page (and at its right edge in right-to-left).
  useLayoutEffect(() => {
    const el = ref.current;
    if (!isCurrent || !el) return;
    el.scrollTop = 0;
    el.scrollLeft = direction === 'RIGHT_TO_LEFT' ? el.scrollWidth : 0;
  }, [isCurrent, direction]);
  const axis = direction === 'VERTICAL' ? 'Y' : 'X';
  const sign = direction === 'RIGHT_TO_LEFT' ? -1 : 1;
  // Plain elements and memoised styles: a page turn re-renders every slide, and must stay well inside a frame.
  const inner = useMemo<CSSProperties>(
    () => ({
      display: 'flex',
      flexDirection: direction === 'RIGHT_TO_LEFT' ? 'row-reverse' : 'row',
      // margin: auto centres the spread, and keeps its start reachable when it is larger than the screen.
      margin: 'auto',
      ...(scale === 'width' || scale === 'width-shrink'
        ? { marginTop: 0, width: '100%', justifyContent: 'center' }
        : {}),
      ...(scale === 'screen' ? { width: '100%', height: '100%', justifyContent: 'center' } : {}),
      ...(scale === 'height' ? { height: '100%' } : {}),
    }),
    [direction, scale],
  );
  const images = useMemo(
    () => spread.map((_, index) => imageStyle(scale, spread.length, index, direction)),
    [spread, scale, direction],
  );
  return (
    <div
      ref={ref}
      aria-hidden={!isCurrent}
      data-current={isCurrent || undefined}
      style={{
        position: 'absolute',
        inset: 0,
        display: 'flex',
        overflow: isCurrent ? 'auto' : 'hidden',
        scrollbarWidth: 'none',
        willChange: 'transform',
        transform: `translate${axis}(${offset * sign * 100}%)`,
        transition: animate ? TRANSITION : 'none',
        visibility: Math.abs(offset) > 1 ? 'hidden' : 'visible',
      }}
    >
      <div style={inner}>
        {spread.map((page, index) => (
          <PageImage
            key={page.number === 0 ? `blank-${index}` : page.number}
            bookId={bookId}
            page={page}
            entry={entries.get(page.number)}
            load={props.load}
            {...(props.rendered ? { width: drawnWidth(scale, spread.length, page) } : {})}
            onSettled={props.onSettled}
            style={images[index]!}
          />
        ))}
      </div>
    </div>
  );
});

/**
 * The paged reader's carousel (ui.md §11.2): the current slide and its neighbours up to PRELOAD_DISTANCE away sit
 * side by side (stacked in vertical mode, mirrored in right-to-left), so that a page turn only moves them. Taps and
 * swipes are read on the whole area: the zones follow the reading direction.
 */
export function PagedView(props: PagedViewProps) {
  const { spreads, current, direction, swipe, onAction } = props;
  const entries = useRef(new Map<number, BookPageDto>());
  if (entries.current.size !== props.pages.length) {
    entries.current = new Map(props.pages.map((p) => [p.number, p]));
  }
  // Only a turn to the adjacent slide slides; jumps (slider, Home, End) switch at once.
  const committed = useRef(current);
  const step = Math.abs(current - committed.current);
  useEffect(() => {
    committed.current = current;
  }, [current]);
  const pointer = useRef<{ x: number; y: number; swiped: boolean } | null>(null);

  const onPointerDown = (e: PointerEvent) => {
    pointer.current = { x: e.clientX, y: e.clientY, swiped: false };
  };
  const onPointerUp = (e: PointerEvent) => {
    const start = pointer.current;
    if (!start || !swipe || e.pointerType === 'mouse') return;
    const move = swipeMove(e.clientX - start.x, e.clientY - start.y, direction);
    if (move) {
      start.swiped = true;
      onAction(move);
    }
  };
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    if (pointer.current?.swiped) return;
    const box = e.currentTarget.getBoundingClientRect();
    onAction(pagedTapAction((e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height, direction));
  };

  // One slide's images at a time, the current slide first, then the next, the previous, and the farther ones: a page
  // the server renders (PDF) is not queued behind its neighbours. A slide once given its images keeps them.
  const [settled, setSettled] = useState<ReadonlySet<string>>(() => new Set());
  const onSettled = useCallback(
    (page: number) =>
      setSettled((s) => (s.has(`${props.bookId}/${page}`) ? s : new Set(s).add(`${props.bookId}/${page}`))),
    [props.bookId],
  );
  const started = useRef({ bookId: props.bookId, slides: new Set<number>() });
  if (started.current.bookId !== props.bookId) started.current = { bookId: props.bookId, slides: new Set() };
  let free = true;
  for (const i of [current, current + 1, current - 1, current + 2, current - 2]) {
    const spread = spreads[i];
    if (!spread) continue;
    if (free) started.current.slides.add(i);
    if (!spread.every((p) => isBlank(p) || settled.has(`${props.bookId}/${p.number}`))) free = false;
  }

  const slides = [];
  for (
    let i = Math.max(0, current - PRELOAD_DISTANCE);
    i <= Math.min(spreads.length - 1, current + PRELOAD_DISTANCE);
    i++
  ) {
    slides.push(
      <Slide
        key={i}
        bookId={props.bookId}
        rendered={props.rendered}
        load={started.current.slides.has(i)}
        onSettled={onSettled}
        spread={spreads[i]!}
        entries={entries.current}
        offset={i - current}
        direction={direction}
        scale={props.scale}
        animate={props.animations && step === 1}
      />,
    );
  }
  return (
    <Box
      dir="ltr"
      data-testid="paged-reader"
      onPointerDown={onPointerDown}
      onPointerUp={onPointerUp}
      onClick={onClick}
      sx={{
        position: 'fixed',
        inset: 0,
        overflow: 'hidden',
        bgcolor: props.background,
        // With gestures on, swipes along the turning axis are the reader's; the other axis still scrolls. Set on
        // every element: a slide scrolls, so the browser stops looking for touch-action at the slide.
        '&, & *': {
          touchAction: swipe ? (direction === 'VERTICAL' ? 'pan-x pinch-zoom' : 'pan-y pinch-zoom') : 'auto',
        },
        userSelect: 'none',
      }}
    >
      {slides}
    </Box>
  );
}
