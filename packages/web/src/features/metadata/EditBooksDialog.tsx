import { useState } from 'react';
import Stack from '@mui/material/Stack';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import LinkIcon from '@mui/icons-material/Link';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import TableRowsOutlinedIcon from '@mui/icons-material/TableRowsOutlined';
import { useTranslation } from 'react-i18next';
import type { AuthorDto, BookDto } from '@quire/api';
import {
  applyPosterChanges,
  hasPosterChanges,
  useInvalidatePosters,
  usePosters,
  useUpdateBookMetadata,
  useUpdateBooksMetadata,
  type BookMetadataUpdate,
} from '../../api/metadata';
import { useTags } from '../../api/referential';
import { useToast } from '../../components/dialogs';
import { BooksTable, bookRowsOf, rowChanges, rowsInvalid } from './BooksTable';
import { DatePickerButton } from './DatePickerButton';
import { AuthorsEditor, PairRows, hasProblems, linkProblems } from './editors';
import { commonLock, commonValue, type FormInit } from './form-state';
import { BulkNotice, ChipsField, MetaTextField, MetadataDialogLayout, useDialogSession, type DialogTab } from './parts';
import { emptyPosterState, posterChangesOf, PosterEditor, type PosterState } from './PosterEditor';
import { useEditForm } from './useEditForm';
import { dateProblem, isbnProblem, numberSortProblem, required } from './validation';

export interface EditBooksDialogProps {
  open: boolean;
  /** One book: every tab. Several: authors and tags, replacing each book's own. */
  books: BookDto[];
  onClose: () => void;
}

/** Edit the metadata of one book or of several at once (ui.md §12.2). */
export function EditBooksDialog({ open, books, onClose }: EditBooksDialogProps) {
  const session = useDialogSession(open);
  const { toast, show } = useToast();
  return (
    <>
      {books.length === 1 ? (
        <SingleBookForm key={session} open={open} book={books[0]!} onClose={onClose} onSaved={show} />
      ) : (
        books.length > 1 && <BulkBooksForm key={session} open={open} books={books} onClose={onClose} onSaved={show} />
      )}
      {toast}
    </>
  );
}

interface BookValues {
  title: string;
  number: string;
  numberSort: string;
  summary: string;
  releaseDate: string;
  isbn: string;
  authors: AuthorDto[];
  tags: string[];
  links: { label: string; url: string }[];
}

function bookInit(book: BookDto): FormInit<BookValues> {
  const m = book.metadata;
  return {
    values: {
      title: m.title,
      number: m.number,
      numberSort: String(m.numberSort),
      summary: m.summary,
      releaseDate: m.releaseDate ?? '',
      isbn: m.isbn,
      authors: m.authors.map((a) => ({ name: a.name, role: a.role })),
      tags: [...m.tags],
      links: m.links.map((l) => ({ label: l.label, url: l.url })),
    },
    locks: {
      title: m.titleLock,
      number: m.numberLock,
      numberSort: m.numberSortLock,
      summary: m.summaryLock,
      releaseDate: m.releaseDateLock,
      isbn: m.isbnLock,
      authors: m.authorsLock,
      tags: m.tagsLock,
      links: m.linksLock,
    },
  };
}

/** What the API takes for each form value. */
export const bookConvert = {
  title: (v: string) => v.trim(),
  number: (v: string) => v.trim(),
  numberSort: (v: string) => Number(v),
  releaseDate: (v: string) => v || null,
  isbn: (v: string) => v.trim(),
  tags: (v: string[]) => v,
  links: (v: { label: string; url: string }[]) => v.map((l) => ({ label: l.label.trim(), url: l.url.trim() })),
};

export function bookProblems(v: BookValues) {
  return {
    title: required(v.title),
    number: required(v.number),
    numberSort: numberSortProblem(v.numberSort),
    releaseDate: dateProblem(v.releaseDate),
    isbn: isbnProblem(v.isbn),
    links: hasProblems(linkProblems(v.links)) ? ('metadata.validation.links' as const) : null,
  };
}

const BOOK_TAB_OF: Record<keyof BookValues, string> = {
  title: 'general',
  number: 'general',
  numberSort: 'general',
  summary: 'general',
  releaseDate: 'general',
  isbn: 'general',
  authors: 'authors',
  tags: 'tags',
  links: 'links',
};

function SingleBookForm({
  open,
  book,
  onClose,
  onSaved,
}: {
  open: boolean;
  book: BookDto;
  onClose: () => void;
  onSaved: (text: string) => void;
}) {
  const { t } = useTranslation();
  const form = useEditForm(() => bookInit(book), bookProblems);
  const update = useUpdateBookMetadata();
  const invalidatePosters = useInvalidatePosters();
  const tags = useTags(undefined, open);
  const [tab, setTab] = useState(0);
  const [posters, setPosters] = useState<PosterState>(emptyPosterState);
  // The stored posters as the poster tab loaded them (none to compare with if the tab was never opened).
  const storedPosters = usePosters('books', book.id, false);
  const [pending, setPending] = useState(false);

  const tabs: DialogTab[] = [
    {
      key: 'general',
      label: t('metadata.tabs.general'),
      icon: <InfoOutlinedIcon />,
      invalid: form.hasError(['title', 'number', 'numberSort', 'summary', 'releaseDate', 'isbn']),
      content: (
        <Stack spacing={2}>
          <MetaTextField label={t('metadata.fields.title')} required {...form.text('title')} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <MetaTextField label={t('metadata.fields.number')} required ltr {...form.text('number')} />
            <MetaTextField
              label={t('metadata.fields.numberSort')}
              required
              ltr
              inputMode="decimal"
              helper={t('metadata.fields.numberSortHint')}
              {...form.text('numberSort')}
            />
          </Stack>
          <MetaTextField label={t('metadata.fields.summary')} multiline {...form.text('summary')} />
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
      invalid: form.hasError(['tags']),
      content: <ChipsField label={t('metadata.fields.tags')} options={tags.data ?? []} {...form.chips('tags')} />,
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
  ];

  const save = async () => {
    form.setSubmitted(true);
    form.clearErrors();
    if (form.invalid.length) {
      setTab(tabs.findIndex((tb) => tb.key === BOOK_TAB_OF[form.invalid[0]!]));
      return;
    }
    const changes = form.changes(bookConvert) as BookMetadataUpdate;
    const posterChanges = posterChangesOf(posters, storedPosters.data ?? []);
    if (Object.keys(changes).length === 0 && !hasPosterChanges(posterChanges)) {
      onClose();
      return;
    }
    setPending(true);
    try {
      if (hasPosterChanges(posterChanges)) {
        try {
          await applyPosterChanges('books', book.id, posterChanges);
        } finally {
          invalidatePosters('books', book.id);
        }
        setPosters(emptyPosterState);
      }
      if (Object.keys(changes).length) await update.mutateAsync({ bookId: book.id, changes });
      onSaved(t('metadata.toast.bookSaved', { name: book.metadata.title }));
      onClose();
    } catch (error) {
      const fields = form.report(error);
      if (fields.length) setTab(tabs.findIndex((tb) => tb.key === BOOK_TAB_OF[fields[0]!]));
    } finally {
      setPending(false);
    }
  };

  return (
    <MetadataDialogLayout
      open={open}
      title={t('metadata.titles.editBook')}
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

interface BulkBookValues {
  authors: AuthorDto[];
  tags: string[];
}

function bulkInit(books: BookDto[]): FormInit<BulkBookValues> {
  const authors = commonValue(
    books.map((b) => b.metadata.authors.map((a) => ({ name: a.name, role: a.role }))),
    [] as AuthorDto[],
  );
  const tags = commonValue(
    books.map((b) => [...b.metadata.tags].sort()),
    [] as string[],
  );
  return {
    values: { authors: authors.value, tags: tags.value },
    locks: {
      authors: commonLock(books.map((b) => b.metadata.authorsLock)),
      tags: commonLock(books.map((b) => b.metadata.tagsLock)),
    },
    mixed: { authors: authors.mixed, tags: tags.mixed },
  };
}

const BULK_TAB_OF: Record<keyof BulkBookValues, string> = { authors: 'authors', tags: 'tags' };

function BulkBooksForm({
  open,
  books,
  onClose,
  onSaved,
}: {
  open: boolean;
  books: BookDto[];
  onClose: () => void;
  onSaved: (text: string) => void;
}) {
  const { t } = useTranslation();
  const form = useEditForm(
    () => bulkInit(books),
    () => ({}),
  );
  const [rows, setRows] = useState(() => bookRowsOf(books));
  const update = useUpdateBooksMetadata();
  const tags = useTags(undefined, open);
  const [tab, setTab] = useState(0);
  const [submitted, setSubmitted] = useState(false);

  const tabs: DialogTab[] = [
    {
      key: 'books',
      label: t('metadata.tabs.books'),
      icon: <TableRowsOutlinedIcon />,
      invalid: submitted && rowsInvalid(rows),
      content: <BooksTable rows={rows} onChange={setRows} showAll={submitted} />,
    },
    {
      key: 'authors',
      label: t('metadata.tabs.authors'),
      icon: <PeopleOutlineIcon />,
      invalid: form.hasError(['authors']),
      content: (
        <Stack spacing={2}>
          <BulkNotice>{t('metadata.bulk.authors', { count: books.length })}</BulkNotice>
          <AuthorsEditor
            authors={form.values.authors}
            onChange={(v) => form.edit('authors', v)}
            lock={form.locks.authors}
            onToggleLock={() => form.toggleLock('authors')}
            knownRoles={books.flatMap((b) => b.metadata.authors.map((a) => a.role))}
            mixed={form.isMixed('authors')}
            error={form.serverErrorOf('authors')}
          />
        </Stack>
      ),
    },
    {
      key: 'tags',
      label: t('metadata.tabs.tags'),
      icon: <LocalOfferOutlinedIcon />,
      invalid: form.hasError(['tags']),
      content: (
        <Stack spacing={2}>
          <BulkNotice>{t('metadata.bulk.bookTags', { count: books.length })}</BulkNotice>
          <ChipsField label={t('metadata.fields.tags')} options={tags.data ?? []} {...form.chips('tags')} />
        </Stack>
      ),
    },
  ];

  const save = () => {
    setSubmitted(true);
    if (rowsInvalid(rows)) {
      setTab(0);
      return;
    }
    const shared = form.changes() as BookMetadataUpdate;
    const body: Record<string, BookMetadataUpdate> = {};
    for (const row of rows) {
      const changes = { ...(rowChanges(row) as BookMetadataUpdate), ...shared };
      if (Object.keys(changes).length) body[row.book.id] = changes;
    }
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    form.clearErrors();
    update.mutate(body, {
      onSuccess: () => {
        onSaved(t('metadata.toast.booksSaved', { count: books.length }));
        onClose();
      },
      onError: (error) => {
        const fields = form.report(error);
        if (fields.length) setTab(tabs.findIndex((tb) => tb.key === BULK_TAB_OF[fields[0]!]));
      },
    });
  };

  return (
    <MetadataDialogLayout
      open={open}
      title={t('metadata.titles.editBooks', { count: books.length })}
      tabs={tabs}
      tab={tab}
      onTabChange={setTab}
      onClose={onClose}
      onSave={save}
      pending={update.isPending}
      error={form.generalError}
      maxWidth="lg"
    />
  );
}
