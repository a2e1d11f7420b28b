import { useState, type ReactNode } from 'react';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import LinkIcon from '@mui/icons-material/Link';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import ShareOutlinedIcon from '@mui/icons-material/ShareOutlined';
import TitleIcon from '@mui/icons-material/Title';
import { useTranslation } from 'react-i18next';
import type { SeriesDto } from '@quire/api';
import {
  applyPosterChanges,
  hasPosterChanges,
  READING_DIRECTIONS,
  SERIES_STATUSES,
  useInvalidatePosters,
  usePosters,
  useUpdateSeriesMetadata,
  type SeriesMetadataUpdate,
} from '../../api/metadata';
import { useGenres, useLanguages, usePublishers, useSharingLabels, useTags } from '../../api/referential';
import { useToast } from '../../components/dialogs';
import { PairRows, alternateTitleProblems, hasProblems, linkProblems } from './editors';
import { commonLock, commonValue, type FormInit } from './form-state';
import { BulkNotice, ChipsField, MetaTextField, MetadataDialogLayout, useDialogSession, type DialogTab } from './parts';
import { emptyPosterState, posterChangesOf, PosterEditor, type PosterState } from './PosterEditor';
import { SuggestField, useLanguageName } from './SuggestField';
import { useEditForm, type EditForm } from './useEditForm';
import { languageProblem, minimumProblem, required } from './validation';

export interface EditSeriesDialogProps {
  open: boolean;
  /** One series: every tab. Several: the shared fields, tags and sharing, replacing each series' own. */
  series: SeriesDto[];
  onClose: () => void;
}

/** The reading direction select's value for "none" (the API's empty string, cleared with null). */
export const NO_DIRECTION = 'NONE';

export interface SeriesValues {
  title: string;
  titleSort: string;
  /** "" only when several series differ. */
  status: string;
  summary: string;
  language: string;
  /** A direction, NO_DIRECTION, or "" when several series differ. */
  readingDirection: string;
  publisher: string;
  ageRating: string;
  totalBookCount: string;
  genres: string[];
  tags: string[];
  sharingLabels: string[];
  links: { label: string; url: string }[];
  alternateTitles: { label: string; title: string }[];
}

const sortedCopy = (values: string[]) => [...values].sort();

export function seriesInit(list: SeriesDto[]): FormInit<SeriesValues> {
  const metas = list.map((s) => s.metadata);
  const pick = <T,>(get: (m: SeriesDto['metadata']) => T, empty: T) => commonValue(metas.map(get), empty);
  const fields = {
    title: pick((m) => m.title, ''),
    titleSort: pick((m) => m.titleSort, ''),
    status: pick((m) => m.status, ''),
    summary: pick((m) => m.summary, ''),
    language: pick((m) => m.language, ''),
    readingDirection: pick((m) => m.readingDirection || NO_DIRECTION, ''),
    publisher: pick((m) => m.publisher, ''),
    ageRating: pick((m) => (m.ageRating === null ? '' : String(m.ageRating)), ''),
    totalBookCount: pick((m) => (m.totalBookCount === null ? '' : String(m.totalBookCount)), ''),
    genres: pick((m) => sortedCopy(m.genres), [] as string[]),
    tags: pick((m) => sortedCopy(m.tags), [] as string[]),
    sharingLabels: pick((m) => sortedCopy(m.sharingLabels), [] as string[]),
    links: pick((m) => m.links.map((l) => ({ label: l.label, url: l.url })), [] as { label: string; url: string }[]),
    alternateTitles: pick(
      (m) => m.alternateTitles.map((a) => ({ label: a.label, title: a.title })),
      [] as { label: string; title: string }[],
    ),
  };
  const lock = (get: (m: SeriesDto['metadata']) => boolean) => commonLock(metas.map(get));
  const keys = Object.keys(fields) as (keyof SeriesValues)[];
  return {
    values: Object.fromEntries(keys.map((k) => [k, fields[k].value])) as unknown as SeriesValues,
    mixed: Object.fromEntries(keys.map((k) => [k, fields[k].mixed])),
    locks: {
      title: lock((m) => m.titleLock),
      titleSort: lock((m) => m.titleSortLock),
      status: lock((m) => m.statusLock),
      summary: lock((m) => m.summaryLock),
      language: lock((m) => m.languageLock),
      readingDirection: lock((m) => m.readingDirectionLock),
      publisher: lock((m) => m.publisherLock),
      ageRating: lock((m) => m.ageRatingLock),
      totalBookCount: lock((m) => m.totalBookCountLock),
      genres: lock((m) => m.genresLock),
      tags: lock((m) => m.tagsLock),
      sharingLabels: lock((m) => m.sharingLabelsLock),
      links: lock((m) => m.linksLock),
      alternateTitles: lock((m) => m.alternateTitlesLock),
    },
  };
}

const wholeOrNull = (v: string) => (v.trim() ? Number(v) : null);

/** What the API takes for each form value (spec: null clears reading direction, age rating, total count). */
export const seriesConvert = {
  title: (v: string) => v.trim(),
  titleSort: (v: string) => v.trim(),
  language: (v: string) => v.trim(),
  publisher: (v: string) => v.trim(),
  readingDirection: (v: string) => (v === NO_DIRECTION || !v ? null : v),
  ageRating: wholeOrNull,
  totalBookCount: wholeOrNull,
  links: (v: { label: string; url: string }[]) => v.map((l) => ({ label: l.label.trim(), url: l.url.trim() })),
  alternateTitles: (v: { label: string; title: string }[]) =>
    v.map((a) => ({ label: a.label.trim(), title: a.title.trim() })),
};

export const seriesProblems = (single: boolean) => (v: SeriesValues) => ({
  title: single ? required(v.title) : null,
  titleSort: single ? required(v.titleSort) : null,
  status: single ? required(v.status) : null,
  language: languageProblem(v.language),
  ageRating: minimumProblem(v.ageRating, 0),
  totalBookCount: minimumProblem(v.totalBookCount, 1),
  links: hasProblems(linkProblems(v.links)) ? ('metadata.validation.links' as const) : null,
  alternateTitles: hasProblems(alternateTitleProblems(v.alternateTitles))
    ? ('metadata.validation.alternateTitles' as const)
    : null,
});

const SERIES_TAB_OF: Record<keyof SeriesValues, string> = {
  title: 'general',
  titleSort: 'general',
  status: 'general',
  summary: 'general',
  language: 'general',
  readingDirection: 'general',
  publisher: 'general',
  ageRating: 'general',
  totalBookCount: 'general',
  genres: 'tags',
  tags: 'tags',
  sharingLabels: 'sharing',
  links: 'links',
  alternateTitles: 'alternateTitles',
};

/** Edit one series or several at once (ui.md §12.1). */
export function EditSeriesDialog({ open, series, onClose }: EditSeriesDialogProps) {
  const session = useDialogSession(open);
  const { toast, show } = useToast();
  return (
    <>
      {series.length > 0 && <SeriesForm key={session} open={open} series={series} onClose={onClose} onSaved={show} />}
      {toast}
    </>
  );
}

/** The fields series and one-shots share (status, language, reading direction, publisher, age rating). */
export function SeriesSharedFields<V extends SeriesValues | OneshotSharedValues>({
  form,
  open,
  withStatus,
  withTotalBookCount = false,
}: {
  form: EditForm<V>;
  open: boolean;
  withStatus: boolean;
  /** Beside the age rating (single series only). */
  withTotalBookCount?: boolean;
}) {
  const { t } = useTranslation();
  const languages = useLanguages(undefined, open);
  const publishers = usePublishers(undefined, open);
  const languageName = useLanguageName();
  const f = form as unknown as EditForm<SeriesValues>;
  const name = languageName(f.values.language.trim());
  const mixedItem = (key: keyof SeriesValues): ReactNode =>
    f.isMixed(key) && (
      <MenuItem value="" disabled>
        <em>{t('metadata.mixed')}</em>
      </MenuItem>
    );
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {withStatus && (
          <MetaTextField
            select
            label={t('metadata.fields.status')}
            required={!f.isMixed('status')}
            {...f.text('status')}
          >
            {mixedItem('status')}
            {SERIES_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`metadata.status.${s}`)}
              </MenuItem>
            ))}
          </MetaTextField>
        )}
        <MetaTextField select label={t('metadata.fields.readingDirection')} {...f.text('readingDirection')}>
          {mixedItem('readingDirection')}
          <MenuItem value={NO_DIRECTION}>
            <em>{t('metadata.readingDirection.none')}</em>
          </MenuItem>
          {READING_DIRECTIONS.map((d) => (
            <MenuItem key={d} value={d}>
              {t(`metadata.readingDirection.${d}`)}
            </MenuItem>
          ))}
        </MetaTextField>
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <SuggestField
          label={t('metadata.fields.language')}
          options={languages.data ?? []}
          describe={languageName}
          ltr
          helper={name ? `${name} · ${t('metadata.fields.languageHint')}` : t('metadata.fields.languageHint')}
          {...f.text('language')}
        />
        <SuggestField label={t('metadata.fields.publisher')} options={publishers.data ?? []} {...f.text('publisher')} />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <MetaTextField
          label={t('metadata.fields.ageRating')}
          type="number"
          inputMode="numeric"
          ltr
          {...f.text('ageRating')}
        />
        {withTotalBookCount && (
          <MetaTextField
            label={t('metadata.fields.totalBookCount')}
            type="number"
            inputMode="numeric"
            ltr
            {...f.text('totalBookCount')}
          />
        )}
      </Stack>
    </>
  );
}

/** The fields of a one-shot that live on its series (the shared ones above). */
export type OneshotSharedValues = Pick<SeriesValues, 'language' | 'readingDirection' | 'publisher' | 'ageRating'>;

function SeriesForm({
  open,
  series,
  onClose,
  onSaved,
}: {
  open: boolean;
  series: SeriesDto[];
  onClose: () => void;
  onSaved: (text: string) => void;
}) {
  const { t } = useTranslation();
  const single = series.length === 1;
  const first = series[0]!;
  const form = useEditForm(() => seriesInit(series), seriesProblems(single));
  const update = useUpdateSeriesMetadata();
  const invalidatePosters = useInvalidatePosters();
  const genres = useGenres(undefined, open);
  const tags = useTags(undefined, open);
  const labels = useSharingLabels(undefined, open);
  const storedPosters = usePosters('series', first.id, false);
  const [tab, setTab] = useState(0);
  const [posters, setPosters] = useState<PosterState>(emptyPosterState);
  const [pending, setPending] = useState(false);

  const general: DialogTab = {
    key: 'general',
    label: t('metadata.tabs.general'),
    icon: <InfoOutlinedIcon />,
    invalid: form.hasError(['title', 'titleSort', 'status', 'language', 'ageRating', 'totalBookCount', 'publisher']),
    content: (
      <Stack spacing={2}>
        {single && (
          <>
            <MetaTextField label={t('metadata.fields.title')} required {...form.text('title')} />
            <MetaTextField label={t('metadata.fields.sortTitle')} required {...form.text('titleSort')} />
          </>
        )}
        <SeriesSharedFields form={form} open={open} withStatus withTotalBookCount={single} />
        {single && <MetaTextField label={t('metadata.fields.summary')} multiline {...form.text('summary')} />}
      </Stack>
    ),
  };
  const alternateTitles: DialogTab = {
    key: 'alternateTitles',
    label: t('metadata.tabs.alternateTitles'),
    icon: <TitleIcon />,
    invalid: form.hasError(['alternateTitles']),
    content: (
      <PairRows
        label={t('metadata.tabs.alternateTitles')}
        rows={form.values.alternateTitles}
        onChange={(v) => form.edit('alternateTitles', v)}
        lock={form.locks.alternateTitles}
        onToggleLock={() => form.toggleLock('alternateTitles')}
        first={{ key: 'label', label: t('metadata.fields.alternateTitleLabel') }}
        second={{ key: 'title', label: t('metadata.fields.title') }}
        problems={alternateTitleProblems(form.values.alternateTitles)}
        showAll={form.submitted}
        error={form.serverErrorOf('alternateTitles')}
        addLabel={t('metadata.alternateTitles.add')}
        removeLabel={(i) => t('metadata.alternateTitles.remove', { n: i + 1 })}
        emptyText={t('metadata.alternateTitles.empty')}
      />
    ),
  };
  const tagsTab: DialogTab = {
    key: 'tags',
    label: t('metadata.tabs.tags'),
    icon: <LocalOfferOutlinedIcon />,
    invalid: form.hasError(['genres', 'tags']),
    content: (
      <Stack spacing={2}>
        {!single && <BulkNotice>{t('metadata.bulk.seriesTags', { count: series.length })}</BulkNotice>}
        <ChipsField label={t('metadata.fields.genres')} options={genres.data ?? []} {...form.chips('genres')} />
        <ChipsField label={t('metadata.fields.tags')} options={tags.data ?? []} {...form.chips('tags')} />
      </Stack>
    ),
  };
  const links: DialogTab = {
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
  };
  const sharing: DialogTab = {
    key: 'sharing',
    label: t('metadata.tabs.sharing'),
    icon: <ShareOutlinedIcon />,
    invalid: form.hasError(['sharingLabels']),
    content: (
      <Stack spacing={2}>
        {!single && <BulkNotice>{t('metadata.bulk.sharing', { count: series.length })}</BulkNotice>}
        <ChipsField
          label={t('metadata.fields.sharingLabels')}
          helper={t('metadata.fields.sharingLabelsHint')}
          options={labels.data ?? []}
          {...form.chips('sharingLabels')}
        />
      </Stack>
    ),
  };
  const poster: DialogTab = {
    key: 'poster',
    label: t('metadata.tabs.poster'),
    icon: <ImageOutlinedIcon />,
    content: <PosterEditor owner="series" id={first.id} state={posters} onChange={setPosters} />,
  };
  const tabs = single ? [general, alternateTitles, tagsTab, links, sharing, poster] : [general, tagsTab, sharing];

  const jumpTo = (field: keyof SeriesValues) => setTab(tabs.findIndex((tb) => tb.key === SERIES_TAB_OF[field]));
  const save = async () => {
    form.setSubmitted(true);
    form.clearErrors();
    if (form.invalid.length) return jumpTo(form.invalid[0]!);
    const changes = form.changes(seriesConvert) as SeriesMetadataUpdate;
    const posterChanges = single ? posterChangesOf(posters, storedPosters.data ?? []) : null;
    const withPosters = !!posterChanges && hasPosterChanges(posterChanges);
    if (Object.keys(changes).length === 0 && !withPosters) return onClose();
    setPending(true);
    try {
      if (withPosters) {
        try {
          await applyPosterChanges('series', first.id, posterChanges);
        } finally {
          invalidatePosters('series', first.id);
        }
        setPosters(emptyPosterState);
      }
      if (Object.keys(changes).length) {
        for (const s of series) await update.mutateAsync({ seriesId: s.id, changes });
      }
      onSaved(
        single
          ? t('metadata.toast.seriesSaved', { name: first.metadata.title })
          : t('metadata.toast.manySeriesSaved', { count: series.length }),
      );
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
      title={single ? t('metadata.titles.editSeries') : t('metadata.titles.editManySeries', { count: series.length })}
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
