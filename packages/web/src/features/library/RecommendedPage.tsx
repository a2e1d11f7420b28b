import { useParams } from 'react-router';
import { DashboardSections } from '../dashboard/DashboardSections';
import { LibraryToolbar, libraryScope } from './LibraryToolbar';

/** One library's dashboard (ui.md §3): the same sections, limited to the library, under its toolbar. */
export function RecommendedPage() {
  const { libraryId = '' } = useParams();
  return (
    <DashboardSections
      key={libraryId}
      libraryIds={libraryScope(libraryId)}
      seeAllBase={`/libraries/${encodeURIComponent(libraryId)}/recommended`}
      toolbar={(selecting) => <LibraryToolbar libraryId={libraryId} view="RECOMMENDED" hidden={selecting} />}
    />
  );
}
