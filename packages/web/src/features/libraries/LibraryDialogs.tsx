import { createContext, lazy, Suspense, useContext, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  useAnalyzeLibrary,
  useEmptyTrash,
  useRefreshLibraryMetadata,
  useScanLibrary,
  type LibraryDto,
} from '../../api/libraries';
import { ALL_LIBRARIES } from '../../app/preferences';
import DialogContentText from '@mui/material/DialogContentText';
import { ConfirmDialog } from '../../components/dialogs';
import { errorText } from '../../i18n/errorMessage';
import { useToast } from '../../components/dialogs';
import { DeleteLibraryDialog } from './DeleteLibraryDialog';

const LibraryDialog = lazy(() => import('./LibraryDialog').then((m) => ({ default: m.LibraryDialog })));

/** Library actions that ask first (ui.md §1.4). */
export type ConfirmedAction = 'analyze' | 'refresh' | 'emptyTrash';

export interface LibraryActions {
  /** Opens the add-library dialog. */
  add: () => void;
  edit: (library: LibraryDto) => void;
  /** Asks, then deletes. */
  remove: (library: LibraryDto) => void;
  scan: (library: LibraryDto, deep: boolean) => void;
  /** Asks, then queues the action. */
  confirm: (action: ConfirmedAction, library: LibraryDto) => void;
}

const LibraryActionsContext = createContext<LibraryActions | null>(null);

/** The library dialogs and actions, from anywhere inside LibraryDialogsProvider (the app shell). */
export function useLibraryActions(): LibraryActions {
  const actions = useContext(LibraryActionsContext);
  if (!actions) throw new Error('useLibraryActions must be used inside LibraryDialogsProvider');
  return actions;
}

interface EditorState {
  /** A new session remounts the dialog, so every opening starts from fresh values. */
  session: number;
  open: boolean;
  library?: LibraryDto;
}

/**
 * One host for the add/edit, delete and confirmation dialogs of libraries plus their toasts (Komga's global dialog
 * host, ui.md §1.6). It lives in the shell, so a drawer row that disappears (library deleted) does not take its
 * dialog or toast with it.
 */
export function LibraryDialogsProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { toast, show } = useToast();
  const [editor, setEditor] = useState<EditorState | null>(null);
  const [deleting, setDeleting] = useState<{ library: LibraryDto; open: boolean } | null>(null);
  const [confirming, setConfirming] = useState<{ action: ConfirmedAction; library: LibraryDto; open: boolean } | null>(
    null,
  );
  const scan = useScanLibrary();
  const analyze = useAnalyzeLibrary();
  const refresh = useRefreshLibraryMetadata();
  const emptyTrash = useEmptyTrash();

  const fail = (e: unknown) => show(errorText(t, e), 'error');

  const actions: LibraryActions = {
    add: () => setEditor((s) => ({ session: (s?.session ?? 0) + 1, open: true })),
    edit: (library) => setEditor((s) => ({ session: (s?.session ?? 0) + 1, open: true, library })),
    remove: (library) => setDeleting({ library, open: true }),
    scan: (library, deep) =>
      scan.mutate(
        { id: library.id, deep },
        {
          onSuccess: () =>
            show(t(deep ? 'libraries.toast.deepScanQueued' : 'libraries.toast.scanQueued', { name: library.name })),
          onError: fail,
        },
      ),
    confirm: (action, library) => setConfirming({ action, library, open: true }),
  };

  const confirmMutations = { analyze, refresh, emptyTrash };
  const runConfirmed = () => {
    if (!confirming) return;
    const { action, library } = confirming;
    const queued = {
      analyze: 'libraries.toast.analyzeQueued',
      refresh: 'libraries.toast.refreshQueued',
      emptyTrash: 'libraries.toast.emptyTrashQueued',
    }[action];
    confirmMutations[action].mutate(library.id, {
      onSuccess: () => show(t(queued, { name: library.name })),
      onError: fail,
      onSettled: () => setConfirming((c) => c && { ...c, open: false }),
    });
  };

  const confirmTexts =
    confirming &&
    {
      analyze: {
        title: t('libraries.confirm.analyzeTitle'),
        message: t('libraries.confirm.analyzeMessage', { name: confirming.library.name }),
        button: t('libraries.confirm.analyzeButton'),
      },
      refresh: {
        title: t('libraries.confirm.refreshTitle'),
        message: t('libraries.confirm.refreshMessage', { name: confirming.library.name }),
        button: t('libraries.confirm.refreshButton'),
      },
      emptyTrash: {
        title: t('libraries.confirm.emptyTrashTitle'),
        message: t('libraries.confirm.emptyTrashMessage', { name: confirming.library.name }),
        button: t('libraries.confirm.emptyTrashButton'),
      },
    }[confirming.action];

  return (
    <LibraryActionsContext.Provider value={actions}>
      {children}
      {editor && (
        <Suspense fallback={null}>
          <LibraryDialog
            key={editor.session}
            open={editor.open}
            library={editor.library}
            onClose={() => setEditor((s) => s && { ...s, open: false })}
            onSaved={(name, created) => {
              setEditor((s) => s && { ...s, open: false });
              show(t(created ? 'libraries.toast.added' : 'libraries.toast.updated', { name }));
            }}
          />
        </Suspense>
      )}
      {deleting && (
        <DeleteLibraryDialog
          open={deleting.open}
          library={deleting.library}
          onClose={() => setDeleting((d) => d && { ...d, open: false })}
          onDeleted={() => {
            const { library } = deleting;
            setDeleting((d) => d && { ...d, open: false });
            show(t('libraries.toast.deleted', { name: library.name }));
            if (location.pathname.startsWith(`/libraries/${library.id}`)) void navigate(`/libraries/${ALL_LIBRARIES}`);
          }}
        />
      )}
      {confirming && confirmTexts && (
        <ConfirmDialog
          open={confirming.open}
          title={confirmTexts.title}
          confirmLabel={confirmTexts.button}
          danger={confirming.action === 'emptyTrash'}
          pending={confirmMutations[confirming.action].isPending}
          onConfirm={runConfirmed}
          onClose={() => setConfirming((c) => c && { ...c, open: false })}
        >
          <DialogContentText>{confirmTexts.message}</DialogContentText>
        </ConfirmDialog>
      )}
      {toast}
    </LibraryActionsContext.Provider>
  );
}
