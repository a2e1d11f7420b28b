import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchBookList, type BookCondition } from '../../api/books';
import { useAnalyzeBooks } from '../../api/actions';
import { useActionErrorText } from '../items/errors';
import { showItemToast } from '../items/toast';

/**
 * Analysing books again from a media management list: some books, or every book the list's condition selects
 * (fetched whole, since the table holds one page). `done` names the toast; the selection is cleared after.
 */
export function useAnalysisAction(
  condition: BookCondition,
  done: 'media.analysisQueued' | 'media.postersQueued',
  clearSelection: () => void,
) {
  const { t } = useTranslation();
  const analyze = useAnalyzeBooks();
  const errorText = useActionErrorText();
  const run = (ids: string[]) =>
    analyze.mutate(
      { ids },
      {
        onSuccess: () => {
          showItemToast(t(done, { count: ids.length }));
          clearSelection();
        },
        onError: (error) => showItemToast(errorText(error), 'error'),
      },
    );
  const runAll = async () => {
    try {
      const all = await fetchBookList({ condition, unpaged: true });
      run(all.content.map((b) => b.id));
    } catch (error) {
      showItemToast(errorText(error), 'error');
    }
  };
  return { run, runAll, pending: analyze.isPending };
}

/** The two buttons above such a list: the selected books, and every listed book. */
export function SelectionActions(props: {
  icon: ReactElement;
  selectedLabel: string;
  allLabel: string;
  selected: ReadonlySet<string>;
  total: number;
  action: ReturnType<typeof useAnalysisAction>;
}) {
  const { action } = props;
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
      <Button
        variant="outlined"
        startIcon={props.icon}
        disabled={props.selected.size === 0 || action.pending}
        onClick={() => action.run([...props.selected])}
      >
        {props.selectedLabel}
      </Button>
      <Button
        variant="outlined"
        startIcon={props.icon}
        disabled={props.total === 0 || action.pending}
        onClick={() => void action.runAll()}
      >
        {props.allLabel}
      </Button>
    </Stack>
  );
}
