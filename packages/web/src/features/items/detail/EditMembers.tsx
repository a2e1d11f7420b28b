import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import { useTranslation } from 'react-i18next';
import { thumbnailUrl, type PosterKind } from '../../../api/books';
import { visuallyHidden } from '../../../components/visuallyHidden';

export interface Member {
  id: string;
  title: string;
  subtitle?: string;
}

export interface EditMembersProps {
  kind: PosterKind;
  items: Member[];
  /** Manual ordering: members can be moved (buttons, Alt+↑/↓, or drag and drop). */
  ordered: boolean;
  onChange: (items: Member[]) => void;
  label: string;
}

export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item!);
  return next;
}

/**
 * The members of a collection or read list while editing them (ui.md §8 "edit elements"): remove any; when the list
 * is ordered, move with the arrow buttons, Alt+Up/Down on a row, or by dragging. Each move is announced, and focus
 * stays on the moved member.
 */
export function EditMembers({ kind, items, ordered, onChange, label }: EditMembersProps) {
  const { t } = useTranslation();
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);
  const focusAfter = useRef<{ id: string; control: string } | null>(null);
  const rows = useRef(new Map<string, HTMLElement>());

  useEffect(() => {
    const pending = focusAfter.current;
    if (!pending) return;
    focusAfter.current = null;
    const row = rows.current.get(pending.id);
    const target = row?.querySelector<HTMLElement>(`[data-control="${pending.control}"]:not([disabled])`) ?? row;
    target?.focus();
  }, [items]);

  const moveTo = (from: number, to: number, control: string) => {
    if (to < 0 || to >= items.length || from === to) return;
    const item = items[from]!;
    focusAfter.current = { id: item.id, control };
    onChange(move(items, from, to));
    setAnnouncement(t('items.edit.moved', { title: item.title, position: to + 1, total: items.length }));
  };
  const remove = (index: number) => {
    const item = items[index]!;
    const neighbour = items[index + 1] ?? items[index - 1];
    if (neighbour) focusAfter.current = { id: neighbour.id, control: 'remove' };
    onChange(items.filter((_, i) => i !== index));
    setAnnouncement(t('items.edit.removed', { title: item.title }));
  };

  return (
    <>
      <List aria-label={label} sx={{ maxWidth: 720 }}>
        {items.map((item, index) => (
          <ListItem
            key={item.id}
            ref={(el: HTMLLIElement | null) => {
              if (el) rows.current.set(item.id, el);
              else rows.current.delete(item.id);
            }}
            tabIndex={-1}
            draggable={ordered}
            onKeyDown={(e) => {
              if (!ordered || !e.altKey) return;
              if (e.key === 'ArrowUp') {
                e.preventDefault();
                moveTo(index, index - 1, 'up');
              } else if (e.key === 'ArrowDown') {
                e.preventDefault();
                moveTo(index, index + 1, 'down');
              }
            }}
            onDragStart={(e) => {
              setDragging(item.id);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', item.id);
            }}
            onDragOver={(e) => {
              if (!dragging) return;
              e.preventDefault();
              const rect = e.currentTarget.getBoundingClientRect();
              setDropIndex(e.clientY < rect.top + rect.height / 2 ? index : index + 1);
            }}
            onDrop={(e) => {
              e.preventDefault();
              const from = items.findIndex((i) => i.id === dragging);
              if (from >= 0 && dropIndex !== null) moveTo(from, dropIndex > from ? dropIndex - 1 : dropIndex, 'handle');
              setDragging(null);
              setDropIndex(null);
            }}
            onDragEnd={() => {
              setDragging(null);
              setDropIndex(null);
            }}
            sx={{
              gap: 1.5,
              borderBottom: 1,
              borderColor: 'divider',
              opacity: dragging === item.id ? 0.4 : 1,
              boxShadow: (th) =>
                dropIndex === index
                  ? `inset 0 3px 0 ${th.palette.secondary.main}`
                  : dropIndex === index + 1 && index === items.length - 1
                    ? `inset 0 -3px 0 ${th.palette.secondary.main}`
                    : undefined,
              '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
            }}
          >
            {ordered && (
              <Box
                data-control="handle"
                aria-hidden
                sx={{ cursor: 'grab', color: 'text.secondary', display: { xs: 'none', sm: 'flex' } }}
              >
                <DragIndicatorIcon />
              </Box>
            )}
            {ordered && (
              <Typography variant="body2" color="text.secondary" sx={{ minWidth: '2ch', textAlign: 'end' }}>
                {index + 1}
              </Typography>
            )}
            <Box
              component="img"
              src={thumbnailUrl(kind, item.id)}
              alt=""
              loading="lazy"
              sx={{ width: 40, aspectRatio: '0.7071', objectFit: 'cover', borderRadius: 0.5, flexShrink: 0 }}
            />
            <ListItemText
              primary={item.title}
              secondary={item.subtitle}
              slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
            />
            {ordered && (
              <>
                <Tooltip title={t('items.edit.moveUp')}>
                  <span>
                    <IconButton
                      data-control="up"
                      aria-label={t('items.edit.moveUpItem', { title: item.title })}
                      disabled={index === 0}
                      onClick={() => moveTo(index, index - 1, 'up')}
                    >
                      <ArrowUpwardIcon />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title={t('items.edit.moveDown')}>
                  <span>
                    <IconButton
                      data-control="down"
                      aria-label={t('items.edit.moveDownItem', { title: item.title })}
                      disabled={index === items.length - 1}
                      onClick={() => moveTo(index, index + 1, 'down')}
                    >
                      <ArrowDownwardIcon />
                    </IconButton>
                  </span>
                </Tooltip>
              </>
            )}
            <Tooltip title={t('items.edit.remove')}>
              <IconButton
                data-control="remove"
                color="error"
                aria-label={t('items.edit.removeItem', { title: item.title })}
                onClick={() => remove(index)}
              >
                <DeleteOutlineIcon />
              </IconButton>
            </Tooltip>
          </ListItem>
        ))}
      </List>
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {announcement}
      </Box>
    </>
  );
}

/** The members list while it loads. */
export function MembersSkeleton() {
  const { t } = useTranslation();
  return (
    <Box aria-busy="true" aria-label={t('common.loading')} sx={{ maxWidth: 720 }}>
      {Array.from({ length: 6 }, (_, i) => (
        <Box key={i} sx={{ display: 'flex', gap: 1.5, alignItems: 'center', px: 2, py: 1 }}>
          <Skeleton variant="rounded" width={40} height={57} />
          <Skeleton variant="text" sx={{ flex: 1 }} />
        </Box>
      ))}
    </Box>
  );
}
