import { useTranslation } from 'react-i18next';
import { PartialFailureError } from '../../api/actions';
import { useErrorText } from '../../components/dialogs';

/** A failed item action as a sentence; for several items, how many failed and why the first one did. */
export function useActionErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (error) =>
    error instanceof PartialFailureError
      ? t('items.errors.partial', {
          count: error.failures.length,
          total: error.total,
          reason: errorText(error.failures[0]!.error),
        })
      : errorText(error);
}
