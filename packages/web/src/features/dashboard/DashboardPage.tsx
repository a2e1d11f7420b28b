import { DashboardSections } from './DashboardSections';

/** The home screen (spec §2, ui.md §3): every section over all the user's libraries. */
export function DashboardPage() {
  return <DashboardSections libraryIds={undefined} seeAllBase="/dashboard" />;
}
