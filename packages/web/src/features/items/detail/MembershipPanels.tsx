import { useState, type ReactNode } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import PlaylistRemoveIcon from '@mui/icons-material/PlaylistRemove';
import { Link as RouterLink } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CollectionDto, ReadListDto } from '@quire/api';
import { useDeleteCollection, useDeleteReadList } from '../../../api/actions';
import { bookKeys, bookQueries } from '../../../api/books';
import { useSeriesCollections } from '../../../api/collections';
import { useReorderCollection, useReorderReadList } from '../../../api/metadata';
import { useBookReadLists } from '../../../api/readlists';
import { seriesKeys, seriesQueries } from '../../../api/series';
import { BookCard } from '../../../components/browse/BookCard';
import { CardSkeleton } from '../../../components/browse/ItemCard';
import { SeriesCard } from '../../../components/browse/SeriesCard';
import { ConfirmDialog } from '../../../components/dialogs';
import { useActionErrorText } from '../errors';
import { useRoles } from '../roles';
import { showItemToast } from '../toast';

/** Cards in these panels are small (ui.md §2.2: 100 px). */
const CARD_WIDTH = 100;

function CardRow({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <Box
      component="ul"
      sx={{
        display: 'flex',
        gap: 1.5,
        overflowX: 'auto',
        m: 0,
        p: 0,
        pb: 1,
        listStyle: 'none',
        scrollSnapType: 'x proximity',
        '& > li': { width: CARD_WIDTH, flexShrink: 0, scrollSnapAlign: 'start' },
      }}
    >
      {loading
        ? Array.from({ length: 6 }, (_, i) => (
            <li key={i}>
              <CardSkeleton />
            </li>
          ))
        : children}
    </Box>
  );
}

interface PanelProps {
  title: string;
  manage: { to: string; label: string };
  /** Admins can take the item out of the list. */
  remove?: { label: string; onClick: () => void };
  /** Mounted on first expansion only, so nothing loads for panels left closed. */
  children: ReactNode;
}

function MembershipPanel({ title, manage, remove, children }: PanelProps) {
  return (
    <Accordion disableGutters variant="outlined" slotProps={{ transition: { unmountOnExit: true } }}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Typography sx={{ overflowWrap: 'anywhere' }}>{title}</Typography>
      </AccordionSummary>
      <AccordionDetails>
        {children}
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <Button component={RouterLink} to={manage.to} size="small">
            {manage.label}
          </Button>
          {remove && (
            <Button size="small" color="error" startIcon={<PlaylistRemoveIcon />} onClick={remove.onClick}>
              {remove.label}
            </Button>
          )}
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}

/**
 * Takes an item out of a list after asking; a list that would be left empty is deleted instead (ui.md §5), and the
 * question says so.
 */
function useRemoval<T extends { id: string; name: string }>(opts: {
  members: (list: T) => string[];
  itemId: string;
  update: (list: T, ids: string[]) => Promise<unknown>;
  remove: (list: T) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const errorText = useActionErrorText();
  const [asking, setAsking] = useState<{ list: T; open: boolean } | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remaining = asking ? opts.members(asking.list).filter((id) => id !== opts.itemId) : [];
  const confirm = async () => {
    if (!asking) return;
    setPending(true);
    setError(null);
    try {
      if (remaining.length === 0) await opts.remove(asking.list);
      else await opts.update(asking.list, remaining);
      showItemToast(t('items.membership.removed', { name: asking.list.name }));
      setAsking({ ...asking, open: false });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPending(false);
    }
  };
  return {
    ask: (list: T) => {
      setError(null);
      setAsking({ list, open: true });
    },
    dialog: asking && (
      <ConfirmDialog
        open={asking.open}
        title={t('items.membership.removeTitle')}
        confirmLabel={t('items.membership.removeButton')}
        pending={pending}
        error={error}
        onConfirm={() => void confirm()}
        onClose={() => setAsking({ ...asking, open: false })}
      >
        <Typography>
          {remaining.length === 0
            ? t('items.membership.removeLast', { name: asking.list.name })
            : t('items.membership.removeMessage', { name: asking.list.name })}
        </Typography>
      </ConfirmDialog>
    ),
  };
}

function CollectionSeriesRow({ collection }: { collection: CollectionDto }) {
  const series = useQuery(seriesQueries.inCollection(collection.id, { unpaged: true }));
  return (
    <CardRow loading={series.isPending}>
      {series.data?.content.map((s) => (
        <li key={s.id}>
          <SeriesCard series={s} />
        </li>
      ))}
    </CardRow>
  );
}

/** "{name} collection" panels of a series (ui.md §5), each opening onto the collection's series. */
export function CollectionPanels({ seriesId }: { seriesId: string }) {
  const { t } = useTranslation();
  const { admin } = useRoles();
  const qc = useQueryClient();
  const collections = useSeriesCollections(seriesId);
  const reorder = useReorderCollection();
  const remove = useDeleteCollection();
  const removal = useRemoval<CollectionDto>({
    members: (c) => c.seriesIds,
    itemId: seriesId,
    update: async (c, seriesIds) => {
      await reorder.mutateAsync({ id: c.id, seriesIds });
      await qc.invalidateQueries({ queryKey: seriesKeys.all });
    },
    remove: (c) => remove.mutateAsync(c.id),
  });
  if (!collections.data?.length) return null;
  return (
    <>
      {collections.data.map((c) => (
        <MembershipPanel
          key={c.id}
          title={t('items.membership.collection', { name: c.name })}
          manage={{ to: `/collections/${encodeURIComponent(c.id)}`, label: t('items.membership.manageCollection') }}
          remove={
            admin ? { label: t('items.membership.removeFromCollection'), onClick: () => removal.ask(c) } : undefined
          }
        >
          <CollectionSeriesRow collection={c} />
        </MembershipPanel>
      ))}
      {removal.dialog}
    </>
  );
}

function ReadListBooksRow({ readList }: { readList: ReadListDto }) {
  const books = useQuery(bookQueries.inReadList(readList.id, { unpaged: true }));
  return (
    <CardRow loading={books.isPending}>
      {books.data?.content.map((b) => (
        <li key={b.id}>
          <BookCard book={b} showSeries readListId={readList.id} />
        </li>
      ))}
    </CardRow>
  );
}

/** "{name} read list" panels of a book (ui.md §6), each opening onto the list's books. */
export function ReadListPanels({ bookId }: { bookId: string }) {
  const { t } = useTranslation();
  const { admin } = useRoles();
  const qc = useQueryClient();
  const readLists = useBookReadLists(bookId);
  const reorder = useReorderReadList();
  const remove = useDeleteReadList();
  const removal = useRemoval<ReadListDto>({
    members: (r) => r.bookIds,
    itemId: bookId,
    update: async (r, bookIds) => {
      await reorder.mutateAsync({ id: r.id, bookIds });
      await qc.invalidateQueries({ queryKey: bookKeys.all });
    },
    remove: (r) => remove.mutateAsync(r.id),
  });
  if (!readLists.data?.length) return null;
  return (
    <>
      {readLists.data.map((r) => (
        <MembershipPanel
          key={r.id}
          title={t('items.membership.readList', { name: r.name })}
          manage={{ to: `/readlists/${encodeURIComponent(r.id)}`, label: t('items.membership.manageReadList') }}
          remove={
            admin ? { label: t('items.membership.removeFromReadList'), onClick: () => removal.ask(r) } : undefined
          }
        >
          <ReadListBooksRow readList={r} />
        </MembershipPanel>
      ))}
      {removal.dialog}
    </>
  );
}
