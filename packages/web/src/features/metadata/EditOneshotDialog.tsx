import { useState } from 'react';
import Stack from '@mui/material/Stack';
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import LinkIcon from '@mui/icons-material/Link';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import ShareOutlinedIcon from '@mui/icons-material/ShareOutlined';
import { useTranslation } from 'react-i18next';
import type { AuthorDto, BookDto, SeriesDto } from '@quire/api';
import {
  applyPosterChanges,
  hasPosterChanges,
  useInvalidatePosters,
  usePosters,
  useUpdateBookMetadata,
  useUpdateSeriesMetadata,
  type BookMetadataUpdate,
  type SeriesMetadataUpdate,
} from '../../api/metadata';
import { useGenres, useSharingLabels, useTags } from '../../api/referential';
import { useToast } from '../../components/dialogs';
import { DatePickerButton } from './DatePickerButton';
import { bookConvert } from './EditBooksDialog';
import { NO_DIRECTION, SeriesSharedFields, seriesConvert } from './EditSeriesDialog';
import { AuthorsEditor, PairRows, hasProblems, linkProblems } from './editors';
import type { FormInit } from './form-state';
import { ChipsField, MetaTextField, MetadataDialogLayout, useDialogSession, type DialogTab } from './parts';
import { emptyPosterState, posterChangesOf, PosterEditor, type PosterState } from './PosterEditor';
import { useEditForm } from './useEditForm';
import { dateProblem, isbnProblem, languageProblem, minimumProblem, required } from './validation';

export interface EditOneshotDialogProps {
  open: boolean;
  series: SeriesDto;
  book: BookDto;
  onClose: () => void;
}

interface OneshotValues {
  title: string;
  titleSort: string;
  summary: string;
  releaseDate: string;
  isbn: string;
  readingDirection: string;
  language: string;
  publisher: string;
  ageRating: string;
  authors: AuthorDto[];
  genres: string[];
  tags: string[];
  links: { label: string; url: string }[];
  sharingLabels: string[];
}

/** Where each field is stored; title and summary are written to both (ui.md §12.3). */
const BOOK_FIELDS = ['title', 'summary', 'releaseDate', 'isbn', 'authors', 'tags', 'links'] as const;
const SERIES_FIELDS = [
  'title',
  'titleSort',
  'summary',
  'readingDirection',
  'language',
  'publisher',
  'ageRating',
  'genres',
  'sharingLabels',
] as const;

function oneshotInit(series: SeriesDto, book: BookDto): FormInit<OneshotValues> {
  const s = series.metadata;
  const b = book.metadata;
  return {
    values: {
      title: b.title,
      titleSort: s.titleSort,
      summary: b.summary,
      releaseDate: b.releaseDate ?? '',
      isbn: b.isbn,
      readingDirection: s.readingDirection || NO_DIRECTION,
      language: s.language,
      publisher: s.publisher,
      ageRating: s.ageRating === null ? '' : String(s.ageRating),
      authors: b.authors.map((a) => ({ name: a.name, role: a.role })),
      genres: [...s.genres],
      tags: [...b.tags],
      links: b.links.map((l) => ({ label: l.label, url: l.url })),
      sharingLabels: [...s.sharingLabels],
    },
    locks: {
      title: b.titleLock,
      titleSort: s.titleSortLock,
      summary: b.summaryLock,
      releaseDate: b.releaseDateLock,
      isbn: b.isbnLock,
      readingDirection: s.readingDirectionLock,
      language: s.languageLock,
      publisher: s.publisherLock,
      ageRating: s.ageRatingLock,
      authors: b.authorsLock,
      genres: s.genresLock,
      tags: b.tagsLock,
      links: b.linksLock,
      sharingLabels: s.sharingLabelsLock,
    },
  };
}

const oneshotProblems = (v: OneshotValues) => ({
  title: required(v.title),
  titleSort: required(v.titleSort),
  releaseDate: dateProblem(v.releaseDate),
  isbn: isbnProblem(v.isbn),
  language: languageProblem(v.language),
  ageRating: minimumProblem(v.ageRating, 0),
  links: hasProblems(linkProblems(v.links)) ? ('metadata.validation.links' as const) : null,
});

const TAB_OF: Record<keyof OneshotValues, string> = {
  title: 'general',
  titleSort: 'general',
  summary: 'general',
  releaseDate: 'general',
  isbn: 'general',
  readingDirection: 'general',
  language: 'general',
  publisher: 'general',
  ageRating: 'general',
  authors: 'authors',
  genres: 'tags',
  tags: 'tags',
  links: 'links',
  sharingLabels: 'sharing',
};

/** The part of `changes` (fields and their locks) that belongs to one side. */
function pickChanges(changes: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field in changes) out[field] = changes[field];
    if (`${field}Lock` in changes) out[`${field}Lock`] = changes[`${field}Lock`];
  }
  return out;
}

/** Edit a one-shot: a series of one book, shown and edited as one item (ui.md §12.3). */
export function EditOneshotDialog({ open, series, book, onClose }: EditOneshotDialogProps) {
  const session = useDialogSession(open);
  const { toast, show } = useToast();
  return (
    <>
      <OneshotForm key={session} open={open} series={series} book={book} onClose={onClose} onSaved={show} />
      {toast}
    </>
  );
}

function OneshotForm({
  open,
  series,
  book,
  onClose,
  onSaved,
}: EditOneshotDialogProps & { onSaved: (text: string) => void }) {
  const { t } = useTranslation();
  const form = useEditForm(() => oneshotInit(series, book), oneshotProblems);
  const updateBook = useUpdateBookMetadata();
  const updateSeries = useUpdateSeriesMetadata();
  const invalidatePosters = useInvalidatePosters();
  const genres = useGenres(undefined, open);
  const tags = useTags(undefined, open);
  const labels = useSharingLabels(undefined, open);
  const storedPosters = usePosters('books', book.id, false);
  const [tab, setTab] = useState(0);
  const [posters, setPosters] = useState<PosterState>(emptyPosterState);
  const [pending, setPending] = useState(false);

  const tabs: DialogTab[] = [
    {
      key: 'general',
      label: t('metadata.tabs.general'),
      icon: <InfoOutlinedIcon />,
      invalid: form.hasError(['title', 'titleSort', 'releaseDate', 'isbn', 'language', 'ageRating', 'publisher']),
      content: (
        <Stack spacing={2}>
          <MetaTextField label={t('metadata.fields.title')} required {...form.text('title')} />
          <MetaTextField label={t('metadata.fields.sortTitle')} required {...form.text('titleSort')} />
          <MetaTextField label={t('metadata.fields.summary')} multiline {...form.text('summary')} />
          <SeriesSharedFields form={form} open={open} withStatus={false} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <MetaTextField
              label={t('metadata.fields.releaseDate')}
              ltr
              helper={t('metadata.fields.releaseDateHint')}
              placeholder="YYYY-MM-DD"
              maxLength={10}
              {...form.text('releaseDate')}
              endAdornment={
                <DatePickerButton value={form.values.releaseDate} onPick={(iso) => form.edit('releaseDate', iso)} />
              }
            />
            <MetaTextField label={t('metadata.fields.isbn')} ltr inputMode="numeric" {...form.text('isbn')} />
          </Stack>
        </Stack>
      ),
    },
    {
      key: 'authors',
      label: t('metadata.tabs.authors'),
      icon: <PeopleOutlineIcon />,
      invalid: form.hasError(['authors']),
      content: (
        <AuthorsEditor
          authors={form.values.authors}
          onChange={(v) => form.edit('authors', v)}
          lock={form.locks.authors}
          onToggleLock={() => form.toggleLock('authors')}
          knownRoles={book.metadata.authors.map((a) => a.role)}
          error={form.serverErrorOf('authors')}
        />
      ),
    },
    {
      key: 'tags',
      label: t('metadata.tabs.tags'),
      icon: <LocalOfferOutlinedIcon />,
      invalid: form.hasError(['genres', 'tags']),
      content: (
        <Stack spacing={2}>
          <ChipsField label={t('metadata.fields.genres')} options={genres.data ?? []} {...form.chips('genres')} />
          <ChipsField label={t('metadata.fields.tags')} options={tags.data ?? []} {...form.chips('tags')} />
        </Stack>
      ),
    },
    {
      key: 'links',
      label: t('metadata.tabs.links'),
      icon: <LinkIcon />,
      invalid: form.hasError(['links']),
      content: (
        <PairRows
          label={t('metadata.tabs.links')}
          rows={form.values.links}
          onChange={(v) => form.edit('links', v)}
          lock={form.locks.links}
          onToggleLock={() => form.toggleLock('links')}
          first={{ key: 'label', label: t('metadata.fields.linkLabel') }}
          second={{ key: 'url', label: t('metadata.fields.url'), ltr: true }}
          problems={linkProblems(form.values.links)}
          showAll={form.submitted}
          error={form.serverErrorOf('links')}
          addLabel={t('metadata.links.add')}
          removeLabel={(i) => t('metadata.links.remove', { n: i + 1 })}
          emptyText={t('metadata.links.empty')}
        />
      ),
    },
    {
      key: 'poster',
      label: t('metadata.tabs.poster'),
      icon: <ImageOutlinedIcon />,
      content: <PosterEditor owner="books" id={book.id} state={posters} onChange={setPosters} />,
    },
    {
      key: 'sharing',
      label: t('metadata.tabs.sharing'),
      icon: <ShareOutlinedIcon />,
      invalid: form.hasError(['sharingLabels']),
      content: (
        <ChipsField
          label={t('metadata.fields.sharingLabels')}
          helper={t('metadata.fields.sharingLabelsHint')}
          options={labels.data ?? []}
          {...form.chips('sharingLabels')}
        />
      ),
    },
  ];

  const jumpTo = (field: keyof OneshotValues) => setTab(tabs.findIndex((tb) => tb.key === TAB_OF[field]));
  const save = async () => {
    form.setSubmitted(true);
    form.clearErrors();
    if (form.invalid.length) return jumpTo(form.invalid[0]!);
    const changes = form.changes({ ...bookConvert, ...seriesConvert }) as Record<string, unknown>;
    const bookChanges = pickChanges(changes, BOOK_FIELDS) as BookMetadataUpdate;
    const seriesChanges = pickChanges(changes, SERIES_FIELDS) as SeriesMetadataUpdate;
    const posterChanges = posterChangesOf(posters, storedPosters.data ?? []);
    const withPosters = hasPosterChanges(posterChanges);
    if (Object.keys(changes).length === 0 && !withPosters) return onClose();
    setPending(true);
    try {
      if (withPosters) {
        try {
          await applyPosterChanges('books', book.id, posterChanges);
        } finally {
          invalidatePosters('books', book.id);
          invalidatePosters('series', series.id);
        }
        setPosters(emptyPosterState);
      }
      if (Object.keys(seriesChanges).length)
        await updateSeries.mutateAsync({ seriesId: series.id, changes: seriesChanges });
      if (Object.keys(bookChanges).length) await updateBook.mutateAsync({ bookId: book.id, changes: bookChanges });
      onSaved(t('metadata.toast.oneshotSaved', { name: book.metadata.title }));
      onClose();
    } catch (error) {
      const fields = form.report(error);
      if (fields.length) jumpTo(fields[0]!);
    } finally {
      setPending(false);
    }
  };

  return (
    <MetadataDialogLayout
      open={open}
      title={t('metadata.titles.editOneshot')}
      tabs={tabs}
      tab={tab}
      onTabChange={setTab}
      onClose={onClose}
      onSave={() => void save()}
      pending={pending}
      error={form.generalError}
    />
  );
}
