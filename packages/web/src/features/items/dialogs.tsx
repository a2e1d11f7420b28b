import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';
import type * as Metadata from '../metadata';

type DialogName =
  | 'EditBooksDialog'
  | 'EditSeriesDialog'
  | 'EditOneshotDialog'
  | 'AddToCollectionDialog'
  | 'AddToReadListDialog'
  | 'EditCollectionDialog'
  | 'EditReadListDialog';

/**
 * The edit and add-to dialogs of features/metadata, loaded on first use: every card has a ⋮ menu, and none should
 * pull the editors into the browse screens' bundle.
 */
function lazyDialog<K extends DialogName>(name: K) {
  type Props = ComponentProps<(typeof Metadata)[K]>;
  // The props are checked where LazyDialog is used; inside, the loaded component takes them as they come.
  const Lazy = lazy(async () => ({ default: (await import('../metadata'))[name] as ComponentType<object> }));
  return function LazyDialog(props: Props) {
    return (
      <Suspense fallback={null}>
        <Lazy {...(props as object)} />
      </Suspense>
    );
  };
}

export const EditBooksDialog = lazyDialog('EditBooksDialog');
export const EditSeriesDialog = lazyDialog('EditSeriesDialog');
export const EditOneshotDialog = lazyDialog('EditOneshotDialog');
export const AddToCollectionDialog = lazyDialog('AddToCollectionDialog');
export const AddToReadListDialog = lazyDialog('AddToReadListDialog');
export const EditCollectionDialog = lazyDialog('EditCollectionDialog');
export const EditReadListDialog = lazyDialog('EditReadListDialog');
