import { Type, type Static } from 'typebox';
import { R2TextDto } from './progress.js';

/**
 * Readium WebPub / DiViNa manifests and positions (api.md §4.7). `WPPublicationDto` omits nulls but keeps
 * empty arrays; its key is `context`, not `@context`, as Komga serialises it.
 */

const Properties = Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()));

/** A link; `alternate` and `children` are links too (left untyped here: the schema is not recursive). */
export const WPLinkDto = Type.Object({
  title: Type.Optional(Type.String()),
  rel: Type.Optional(Type.String()),
  href: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  templated: Type.Optional(Type.Boolean()),
  width: Type.Optional(Type.Integer()),
  height: Type.Optional(Type.Integer()),
  alternate: Type.Optional(Type.Array(Type.Any())),
  children: Type.Optional(Type.Array(Type.Any())),
  properties: Properties,
});
export type WPLinkDto = Static<typeof WPLinkDto>;

export const WPContributorDto = Type.Object({
  name: Type.String(),
  position: Type.Optional(Type.Number()),
  links: Type.Array(WPLinkDto),
});

/** Komga's fields that Quire never fills (`sortAs`, `subtitle`, `type`) are declared for clients all the same. */
export const WPMetadataDto = Type.Object({
  title: Type.String(),
  type: Type.Optional(Type.String()),
  subtitle: Type.Optional(Type.String()),
  sortAs: Type.Optional(Type.String()),
  identifier: Type.Optional(Type.String()),
  conformsTo: Type.Optional(Type.String()),
  modified: Type.Optional(Type.String()),
  published: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
  author: Type.Array(Type.String()),
  translator: Type.Array(Type.String()),
  editor: Type.Array(Type.String()),
  artist: Type.Array(Type.String()),
  illustrator: Type.Array(Type.String()),
  letterer: Type.Array(Type.String()),
  penciler: Type.Array(Type.String()),
  colorist: Type.Array(Type.String()),
  inker: Type.Array(Type.String()),
  contributor: Type.Array(Type.String()),
  publisher: Type.Array(Type.String()),
  subject: Type.Array(Type.String()),
  readingProgression: Type.Optional(Type.Enum(['rtl', 'ltr', 'ttb', 'btt', 'auto'])),
  description: Type.Optional(Type.String()),
  numberOfPages: Type.Optional(Type.Integer()),
  belongsTo: Type.Optional(
    Type.Object({ series: Type.Array(WPContributorDto), collection: Type.Array(WPContributorDto) }),
  ),
  rendition: Type.Record(Type.String(), Type.Unknown()),
});

export const WPPublicationDto = Type.Object({
  context: Type.String(),
  metadata: WPMetadataDto,
  links: Type.Array(WPLinkDto),
  images: Type.Array(WPLinkDto),
  readingOrder: Type.Array(WPLinkDto),
  resources: Type.Array(WPLinkDto),
  toc: Type.Array(WPLinkDto),
  landmarks: Type.Array(WPLinkDto),
  pageList: Type.Array(WPLinkDto),
});
export type WPPublicationDto = Static<typeof WPPublicationDto>;

/** A position of a book; `fragments` is always sent (empty) as Komga does, though clients' own locators may lack it. */
export const R2LocatorDto = Type.Object({
  href: Type.String(),
  type: Type.String(),
  title: Type.Optional(Type.String()),
  locations: Type.Optional(
    Type.Object({
      fragments: Type.Optional(Type.Array(Type.String())),
      progression: Type.Optional(Type.Number()),
      position: Type.Optional(Type.Integer()),
      totalProgression: Type.Optional(Type.Number()),
    }),
  ),
  text: Type.Optional(R2TextDto),
  koboSpan: Type.Optional(Type.String()),
});
export type R2LocatorDto = Static<typeof R2LocatorDto>;

export const R2PositionsDto = Type.Object({ total: Type.Integer(), positions: Type.Array(R2LocatorDto) });
export type R2PositionsDto = Static<typeof R2PositionsDto>;
