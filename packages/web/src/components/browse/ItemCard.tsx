import { useContext, useDeferredValue, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Fab from '@mui/material/Fab';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditIcon from '@mui/icons-material/Edit';
import ImageNotSupportedOutlinedIcon from '@mui/icons-material/ImageNotSupportedOutlined';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { useTranslation } from 'react-i18next';
import { useThumbnailUrl, type PosterKind } from '../../api/books';
import { usePosterSettings } from '../../features/ui-settings/ui-settings';
import { SelectionUnderWay, type SelectEvent } from './selection';

/** Width over height of every poster (1:√2, ui.md §2.1). */
export const POSTER_RATIO = 0.7071;

export interface SelectableCardProps {
  /** Shows the selection circle (grids that support selection). */
  selectable?: boolean;
  selected?: boolean;
  /** The selection circle was used, or the card was clicked while a selection is under way (`SelectionArea`). */
  onSelect?: (event: SelectEvent) => void;
}

export interface ItemCardProps extends SelectableCardProps {
  kind: PosterKind;
  id: string;
  /** Where the card leads. */
  to: string;
  /** The card's name for assistive technology and the title line. */
  title: string;
  /** Shown instead of `title` (same meaning, other wording, e.g. "3 - Title"). */
  titleText?: ReactNode;
  /** A line above the title, e.g. the series of a book. */
  overline?: { text: string; to: string };
  /** The line under the title. */
  subtitle?: ReactNode;
  subtitleColor?: 'error' | 'warning';
  /** A long form of the subtitle, on hover. */
  subtitleTooltip?: string;
  /** Top-end corner of the poster: unread triangle or count. */
  badge?: ReactNode;
  /** Nothing of it read yet (a book, or a series none of whose books is read or started): blurred on request. */
  unread?: boolean;
  /** Reading progress, 0..1: a bar along the poster's bottom edge. */
  progress?: number;
  /** Opens the reader (books): a link shown in the middle of the poster. */
  readTo?: string;
  onEdit?: () => void;
  /** The ⋮ actions menu. */
  menu?: ReactNode;
}

/** The orange corner triangle of an unread book or one-shot. */
export function UnreadTriangle({ label }: { label: string }) {
  return (
    <Box
      role="img"
      aria-label={label}
      sx={{
        position: 'absolute',
        top: 0,
        insetInlineEnd: 0,
        width: 0,
        height: 0,
        borderStyle: 'solid',
        borderWidth: 0,
        borderTopWidth: 25,
        borderInlineStartWidth: 25,
        borderColor: 'transparent',
        borderTopColor: 'warning.main',
      }}
    />
  );
}

/** The orange count of unread books on a series poster. */
export function UnreadCount({ count, label }: { count: number; label: string }) {
  return (
    <Box
      aria-label={label}
      role="img"
      sx={{
        position: 'absolute',
        top: 0,
        insetInlineEnd: 0,
        minWidth: 24,
        px: 0.75,
        py: 0.25,
        bgcolor: 'warning.main',
        color: 'warning.contrastText',
        typography: 'caption',
        fontWeight: 700,
        textAlign: 'center',
        borderEndStartRadius: 4,
      }}
    >
      {count}
    </Box>
  );
}

export interface PosterProps {
  kind: PosterKind;
  id: string;
  alt?: string;
  /** Fills the frame, cropped at the bottom or the sides, instead of showing the whole image (`webui.poster.stretch`). */
  stretch?: boolean;
  /** Blurred, not to give away the cover of something unread (`webui.poster.blur_unread`). */
  blur?: boolean;
}

/** The poster image: a neutral block while it loads, an icon when there is none. */
export function Poster({ kind, id, alt = '', stretch = false, blur = false }: PosterProps) {
  const src = useThumbnailUrl(kind, id);
  const [state, setState] = useState<{ src: string; status: 'loading' | 'loaded' | 'failed' }>({
    src,
    status: 'loading',
  });
  const status = state.src === src ? state.status : 'loading';
  return (
    <Box sx={{ position: 'absolute', inset: 0, bgcolor: 'action.hover' }}>
      {status === 'failed' ? (
        <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <ImageNotSupportedOutlinedIcon sx={{ fontSize: 48, color: 'text.disabled' }} />
        </Box>
      ) : (
        <Box
          component="img"
          src={src}
          alt={alt}
          loading="lazy"
          decoding="async"
          draggable={false}
          onLoad={() => setState({ src, status: 'loaded' })}
          onError={() => setState({ src, status: 'failed' })}
          sx={{
            width: '100%',
            height: '100%',
            objectFit: stretch ? 'cover' : 'contain',
            objectPosition: stretch ? 'top' : undefined,
            filter: blur ? 'blur(5px)' : undefined,
            display: 'block',
            opacity: status === 'loaded' ? 1 : 0,
            transition: 'opacity 150ms',
          }}
        />
      )}
    </Box>
  );
}

const overlayButton = {
  bgcolor: (t: { palette: { common: { black: string } } }) => alpha(t.palette.common.black, 0.55),
  color: 'common.white',
  '&:hover': { bgcolor: (t: { palette: { common: { black: string } } }) => alpha(t.palette.common.black, 0.75) },
} as const;

/**
 * The shell of every item card (ui.md §2.1): poster with badges, an overlay of actions (selection circle, read button,
 * edit pencil, ⋮ menu), title link and a sub-line. The title link covers the whole card, so the poster is clickable
 * without a second link; the overlay's controls sit above it.
 *
 * The overlay shows while the pointer hovers the card, while it holds the keyboard focus, while the card is selected
 * or a selection is under way, and while its menu is open. Touch screens do not hover: there the first tap on the
 * poster shows the overlay instead of opening the item, the second tap acts (opens the item, or presses the button
 * tapped), and a tap elsewhere hides it again. That first tap is caught before it reaches anything on the poster,
 * the hidden overlay's buttons included.
 */
export function ItemCard(props: ItemCardProps) {
  const { t } = useTranslation();
  const { selectable, selected = false, onSelect } = props;
  const [menuFocus, setMenuFocus] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const poster = useRef<HTMLDivElement>(null);
  /** How the last press began: `touch`, `pen` or `mouse`. */
  const pointer = useRef('mouse');
  const area = useContext(SelectionUnderWay);
  /**
   * Something is selected around the card (`SelectionArea`): a click anywhere on it toggles it instead of opening it.
   * Read at the time of the click: the area's cards do not render again when its selection starts or ends.
   */
  const selecting = () => !!area?.current;
  const shown = selected || menuFocus || revealed;
  const posterSettings = usePosterSettings();
  // The overlay's controls (with the ⋮ menu's hooks) and the subtitle's tooltip are seen only on hover or focus: a
  // card's first render leaves them out and a background render right after adds them, so a screenful of rows
  // paints its posters and titles first (issue 18: rendering the dashboard's cards held its first poster ~0.5 s).
  // A card mounted selected gets them at once.
  const complete = useDeferredValue(true, false) || shown;

  useEffect(() => {
    if (!revealed) return;
    const hide = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setRevealed(false);
    };
    document.addEventListener('pointerdown', hide);
    return () => document.removeEventListener('pointerdown', hide);
  }, [revealed]);

  /** A first tap on the poster of a touch screen reveals the overlay; the click it makes goes nowhere. */
  const onClickCapture = (e: MouseEvent) => {
    // detail 0: a click made by the keyboard, which has its own way to the overlay (focus).
    if (shown || selecting() || pointer.current !== 'touch' || e.detail === 0 || !poster.current) return;
    const r = poster.current.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) return;
    e.preventDefault();
    e.stopPropagation();
    setRevealed(true);
  };

  const onCardClick = (e: MouseEvent) => {
    if (!selecting() || !onSelect) return;
    e.preventDefault();
    onSelect({ shiftKey: e.shiftKey });
  };

  return (
    <Box
      ref={root}
      data-testid="item-card"
      onPointerDownCapture={(e) => (pointer.current = e.pointerType)}
      onClickCapture={onClickCapture}
      sx={{
        position: 'relative',
        isolation: 'isolate',
        minWidth: 0,
        '&:focus-within .card-overlay': { opacity: 1 },
        // a selection under way around the card: the overlay shows, the read button and the menu step aside
        '[data-selecting] &': {
          '& .card-overlay': { opacity: 1 },
          '& .card-control': { display: 'none' },
          '@media (hover: none)': { '& .card-overlay .MuiButtonBase-root': { pointerEvents: 'auto' } },
        },
        // Only a real hover: touch browsers leave :hover on the last element tapped.
        '@media (hover: hover)': {
          '&:hover .card-overlay': { opacity: 1 },
          '&:hover .card-poster': { outlineColor: (th) => (selected ? undefined : th.palette.secondary.dark) },
        },
      }}
    >
      <Box
        ref={poster}
        className="card-poster"
        sx={{
          position: 'relative',
          aspectRatio: `${POSTER_RATIO}`,
          borderRadius: 1,
          overflow: 'hidden',
          outline: '3px solid',
          outlineOffset: -3,
          outlineColor: selected ? 'secondary.main' : revealed ? 'secondary.dark' : 'transparent',
        }}
      >
        <Poster
          kind={props.kind}
          id={props.id}
          // Named by the item's title (issue 17): a screen reader's image list reads the covers' titles.
          alt={props.title}
          stretch={posterSettings.stretch}
          blur={posterSettings.blurUnread && !!props.unread}
        />
        {props.badge}
        {props.progress !== undefined && (
          <Box
            role="progressbar"
            aria-label={t('browse.card.progress')}
            aria-valuenow={Math.round(props.progress * 100)}
            aria-valuemin={0}
            aria-valuemax={100}
            sx={{ position: 'absolute', insetInline: 0, bottom: 0, height: 6, bgcolor: 'action.disabledBackground' }}
          >
            <Box sx={{ height: '100%', width: `${props.progress * 100}%`, bgcolor: 'warning.main' }} />
          </Box>
        )}
        <Box
          className="card-overlay"
          sx={{
            position: 'absolute',
            inset: 0,
            opacity: shown ? 1 : 0,
            transition: 'opacity 120ms',
            bgcolor: (th) => (selected ? 'transparent' : alpha(th.palette.common.black, 0.3)),
            pointerEvents: 'none',
            '& .MuiButtonBase-root': { pointerEvents: 'auto' },
            // The first tap is caught anyway; this keeps a hidden button from even rippling under it.
            '@media (hover: none)': { '& .MuiButtonBase-root': { pointerEvents: shown ? 'auto' : 'none' } },
            zIndex: 2,
          }}
        >
          {complete && selectable && onSelect && (
            <IconButton
              size="small"
              aria-label={t('browse.card.select', { title: props.title })}
              aria-pressed={selected}
              onClick={(e) => {
                e.preventDefault();
                e.stopPropagation();
                onSelect({ shiftKey: e.shiftKey });
              }}
              sx={{
                position: 'absolute',
                top: 2,
                insetInlineStart: 2,
                color: selected ? 'secondary.main' : 'common.white',
                filter: 'drop-shadow(0 0 2px rgba(0,0,0,0.6))',
              }}
            >
              {selected ? <CheckCircleIcon /> : <RadioButtonUncheckedIcon />}
            </IconButton>
          )}
          {complete && props.readTo && !selected && (
            <Box
              className="card-control"
              sx={{
                position: 'absolute',
                inset: 0,
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
              }}
            >
              <Fab
                component={RouterLink}
                to={props.readTo}
                aria-label={t('browse.card.read', { title: props.title })}
                sx={{
                  bgcolor: 'accent.main',
                  color: 'accent.contrastText',
                  '&:hover': { bgcolor: 'accent.main', filter: 'brightness(0.9)' },
                }}
              >
                <MenuBookIcon />
              </Fab>
            </Box>
          )}
          {complete && props.onEdit && (
            <IconButton
              className="card-control"
              size="small"
              aria-label={t('browse.card.edit', { title: props.title })}
              onClick={(e) => {
                e.preventDefault();
                props.onEdit?.();
              }}
              sx={{ position: 'absolute', bottom: 4, insetInlineStart: 4, ...overlayButton }}
            >
              <EditIcon fontSize="small" />
            </IconButton>
          )}
          {complete && props.menu && (
            <Box
              className="card-control"
              onFocus={() => setMenuFocus(true)}
              onBlur={() => setMenuFocus(false)}
              sx={{
                position: 'absolute',
                bottom: 4,
                insetInlineEnd: 4,
                borderRadius: '50%',
                '& .MuiIconButton-root': overlayButton,
              }}
            >
              {props.menu}
            </Box>
          )}
        </Box>
      </Box>
      <Box sx={{ pt: 0.75, px: 0.25 }}>
        {props.overline && (
          <Link
            component={RouterLink}
            to={props.overline.to}
            variant="body2"
            color="text.primary"
            underline="hover"
            sx={{ display: 'block', fontWeight: 500, position: 'relative', zIndex: 2 }}
            noWrap
            title={props.overline.text}
          >
            {props.overline.text}
          </Link>
        )}
        <Link
          component={RouterLink}
          to={props.to}
          onClick={onCardClick}
          aria-label={props.title}
          variant="body2"
          underline="hover"
          color={props.overline ? 'text.secondary' : 'text.primary'}
          title={props.title}
          sx={{
            display: '-webkit-box',
            WebkitLineClamp: 2,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
            wordBreak: 'break-word',
            fontWeight: props.overline ? 400 : 500,
            lineHeight: 1.3,
            // Stretched over the whole card: the poster opens the item too.
            '&::after': { content: '""', position: 'absolute', inset: 0, zIndex: 1 },
            '&:focus-visible': { outline: 'none' },
            '&:focus-visible::after': { outline: '2px solid', outlineColor: 'primary.main', borderRadius: 1 },
          }}
        >
          {props.titleText ?? props.title}
        </Link>
        {props.subtitle !== undefined &&
          (complete && props.subtitleTooltip ? (
            <Tooltip title={props.subtitleTooltip}>{subtitle(props)}</Tooltip>
          ) : (
            subtitle(props)
          ))}
      </Box>
    </Box>
  );
}

/** The line under a card's title; above the stretched title link where it has a tooltip to show on hover. */
function subtitle(props: ItemCardProps) {
  return (
    <Typography
      variant="caption"
      component="div"
      noWrap
      color={props.subtitleColor ? `${props.subtitleColor}.main` : 'text.secondary'}
      sx={{
        position: 'relative',
        zIndex: props.subtitleTooltip ? 2 : undefined,
        width: 'fit-content',
        maxWidth: '100%',
      }}
    >
      {props.subtitle}
    </Typography>
  );
}

/** A card-sized placeholder: same poster ratio and text lines as a card, so content does not jump in. */
export function CardSkeleton({ lines = 2 }: { lines?: number }) {
  return (
    <Box aria-hidden sx={{ minWidth: 0 }}>
      <Skeleton variant="rounded" sx={{ width: '100%', height: 'auto', aspectRatio: `${POSTER_RATIO}` }} />
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} variant="text" width={i === 0 ? '85%' : '50%'} sx={{ fontSize: '0.875rem' }} />
      ))}
    </Box>
  );
}
