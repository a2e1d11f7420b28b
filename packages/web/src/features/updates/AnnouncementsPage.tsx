import { Fragment } from 'react';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Fab from '@mui/material/Fab';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import { useTranslation } from 'react-i18next';
import type { JsonFeedItemDto } from '@quire/api';
import { outboundUrl, unreadAnnouncements, useAnnouncements, useMarkAnnouncementsRead } from '../../api/updates';
import { useErrorText } from '../../components/dialogs';
import { SafeHtml } from './SafeHtml';

/** The feed's long date in the interface language; nothing when the item has none. */
function useLongDate() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language || undefined, { dateStyle: 'long' });
  return (iso: string | undefined) => (iso && !Number.isNaN(Date.parse(iso)) ? format.format(new Date(iso)) : null);
}

function Item({ item, onMarkRead, marking }: { item: JsonFeedItemDto; onMarkRead: () => void; marking: boolean }) {
  const { t } = useTranslation();
  const longDate = useLongDate();
  const read = item._komga?.read ?? false;
  const title = item.title || item.url || item.id;
  const href = outboundUrl(item.url);
  const date = longDate(item.date_modified);
  return (
    <Stack component="article" spacing={1} aria-label={title}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
        <Badge variant="dot" color="info" invisible={read} title={read ? undefined : t('updates.announcements.unread')}>
          <Typography variant="h5" component="h2" sx={{ pr: 1 }}>
            {href ? (
              <Link href={href} target="_blank" rel="noopener noreferrer" underline="hover">
                {title}
              </Link>
            ) : (
              title
            )}
          </Typography>
        </Badge>
        {!read && (
          <Button color="success" startIcon={<CheckIcon />} onClick={onMarkRead} disabled={marking}>
            {t('updates.announcements.markRead')}
          </Button>
        )}
      </Stack>
      {date && (
        <Typography variant="body2" color="text.secondary">
          {date}
        </Typography>
      )}
      {item.content_html ? (
        <SafeHtml html={item.content_html} />
      ) : (
        item.summary && <Typography variant="body2">{item.summary}</Typography>
      )}
    </Stack>
  );
}

/**
 * The announcements (ui.md §13.5): the items of the feed the server's operator configured, newest as the feed
 * orders them, each with its title (linking out), date, a "mark as read" button while unread, and its content,
 * sanitised. A "mark all as read" button floats while anything is unread.
 */
export function AnnouncementsPage() {
  const { t } = useTranslation();
  const feed = useAnnouncements();
  const mark = useMarkAnnouncementsRead();
  const errorText = useErrorText();
  const unread = unreadAnnouncements(feed.data);
  const items = feed.data?.items ?? [];

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, pb: 10, maxWidth: 960 }}>
      <Typography variant="h5" component="h1">
        {t('updates.announcements.title')}
      </Typography>
      {mark.isError && <Alert severity="error">{errorText(mark.error)}</Alert>}
      {feed.isError ? (
        <Alert severity="error">{errorText(feed.error)}</Alert>
      ) : feed.isPending ? (
        <Stack spacing={1} role="progressbar" aria-busy="true" aria-label={t('updates.announcements.loading')}>
          <Skeleton variant="text" width="60%" height={40} />
          <Skeleton variant="text" width="20%" />
          <Skeleton variant="rectangular" height={120} />
        </Stack>
      ) : items.length === 0 ? (
        <Alert severity="info">{t('updates.announcements.empty')}</Alert>
      ) : (
        <>
          <Typography color="text.secondary" aria-live="polite">
            {t('updates.announcements.unreadCount', { count: unread.length })}
          </Typography>
          {items.map((item, i) => (
            <Fragment key={item.id}>
              {i > 0 && <Divider />}
              <Item item={item} marking={mark.isPending} onMarkRead={() => mark.mutate([item.id])} />
            </Fragment>
          ))}
        </>
      )}
      {unread.length > 0 && (
        <Fab
          variant="extended"
          color="success"
          onClick={() => mark.mutate(unread.map((i) => i.id))}
          disabled={mark.isPending}
          sx={{ position: 'fixed', bottom: 24, insetInlineEnd: 24 }}
        >
          <DoneAllIcon sx={{ mr: 1 }} />
          {t('updates.announcements.markAllRead')}
        </Fab>
      )}
    </Stack>
  );
}
