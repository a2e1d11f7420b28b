import type { CollectionDto, ReadListDto } from '@quire/api';
import { useTranslation } from 'react-i18next';
import { CollectionActionsMenu, ReadListActionsMenu } from '../../features/items';
import { collectionPath, readListPath } from './format';
import { ItemCard, type SelectableCardProps } from './ItemCard';

export interface CollectionCardProps extends SelectableCardProps {
  collection: CollectionDto;
  onEdit?: () => void;
}

export function CollectionCard({ collection, onEdit, ...selection }: CollectionCardProps) {
  const { t } = useTranslation();
  return (
    <ItemCard
      kind="collections"
      id={collection.id}
      to={collectionPath(collection.id)}
      title={collection.name}
      subtitle={t('browse.collection.series', { count: collection.seriesIds.length })}
      onEdit={onEdit}
      menu={<CollectionActionsMenu collection={collection} />}
      {...selection}
    />
  );
}

export interface ReadListCardProps extends SelectableCardProps {
  readList: ReadListDto;
  onEdit?: () => void;
}

export function ReadListCard({ readList, onEdit, ...selection }: ReadListCardProps) {
  const { t } = useTranslation();
  return (
    <ItemCard
      kind="readlists"
      id={readList.id}
      to={readListPath(readList.id)}
      title={readList.name}
      subtitle={t('browse.readList.books', { count: readList.bookIds.length })}
      onEdit={onEdit}
      menu={<ReadListActionsMenu readList={readList} />}
      {...selection}
    />
  );
}
