import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import type { PosterKind } from '../../../api/books';
import { useActionErrorText } from '../errors';
import { showItemToast } from '../toast';
import { DetailToolbar } from './DetailToolbar';
import { EditMembers, MembersSkeleton, type Member } from './EditMembers';

export interface MembersEditorProps {
  /** The list's name. */
  name: string;
  kind: PosterKind;
  ordered: boolean;
  back: { to: string; label: string };
  /** Every member, unfiltered, in the list's order; undefined while loading. */
  members: Member[] | undefined;
  loadError: unknown;
  /** Saves the new member list; resolves once saved. */
  save: (ids: string[]) => Promise<unknown>;
  saving: boolean;
  onDone: () => void;
  label: string;
}

/**
 * Edit elements (ui.md §8-§9): every member without filters, to remove or (when ordered) reorder; ✓ saves the new
 * list in one request, ✕ drops the changes. A list cannot be saved empty; deleting it is the ⋮ menu's job.
 */
export function MembersEditor(props: MembersEditorProps) {
  const { t } = useTranslation();
  const errorText = useActionErrorText();
  const [items, setItems] = useState<Member[] | null>(null);
  const current = items ?? props.members;
  const changed =
    !!items && !!props.members && items.map((i) => i.id).join('\n') !== props.members.map((i) => i.id).join('\n');

  const save = () => {
    if (!current) return;
    props.save(current.map((i) => i.id)).then(
      () => {
        showItemToast(t('items.list.saved', { name: props.name }));
        props.onDone();
      },
      (e: unknown) => showItemToast(errorText(e), 'error'),
    );
  };

  return (
    <Box>
      <DetailToolbar
        back={props.back}
        titleIsHeading
        title={t('items.list.editingTitle', { name: props.name })}
        actions={
          <>
            <Tooltip title={t('items.list.cancelEdit')}>
              <IconButton aria-label={t('items.list.cancelEdit')} onClick={props.onDone} disabled={props.saving}>
                <CloseIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('items.list.saveEdit')}>
              <span>
                <IconButton
                  color="primary"
                  aria-label={t('items.list.saveEdit')}
                  onClick={save}
                  disabled={!changed || !current?.length || props.saving}
                >
                  <CheckIcon />
                </IconButton>
              </span>
            </Tooltip>
          </>
        }
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1, px: 1 }}>
          {props.ordered ? t('items.list.editOrderedHint') : t('items.list.editHint')}
        </Typography>
        {props.loadError ? (
          <Alert severity="error">{errorText(props.loadError)}</Alert>
        ) : !current ? (
          <MembersSkeleton />
        ) : current.length === 0 ? (
          <Alert severity="warning">{t('items.list.emptyAfterEdit')}</Alert>
        ) : (
          <EditMembers
            kind={props.kind}
            items={current}
            ordered={props.ordered}
            onChange={setItems}
            label={props.label}
          />
        )}
      </Box>
    </Box>
  );
}
