import { describe, expect, it } from 'vitest';
import { FeedError, MAX_FEED_ITEMS, parseJsonFeed } from '../../src/updates/feed.js';
import { parseChangelog } from '../../src/updates/releases.js';

describe('parseJsonFeed', () => {
  const feed = (items: unknown, extra: object = {}) =>
    JSON.stringify({ version: 'https://jsonfeed.org/version/1', title: 'T', items, ...extra });

  it('keeps what has the expected type, and drops items without an id', () => {
    const parsed = parseJsonFeed(
      feed([
        { id: 7, title: 'Numeric id', tags: ['a', 3, 'b'], author: { name: 'Ann', url: 'ftp://x' } },
        { id: 'b', title: 42, url: 'data:text/html,<script>', authors: [{ name: 'Bo', url: 'https://b.example' }] },
        { title: 'no id' },
        'not an item',
        { id: 'b', title: 'duplicate id' },
      ]),
    );
    expect(parsed.items).toEqual([
      { id: '7', title: 'Numeric id', tags: ['a', 'b'], author: { name: 'Ann' } },
      { id: 'b', tags: [], author: { name: 'Bo', url: 'https://b.example/' } },
    ]);
  });

  it(`keeps at most ${MAX_FEED_ITEMS} items`, () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({ id: String(i) }));
    expect(parseJsonFeed(feed(items)).items).toHaveLength(MAX_FEED_ITEMS);
  });

  it.each([
    ['<html><body>Not a feed</body></html>', 'not JSON'],
    ['[1, 2]', 'not a JSON object'],
    [JSON.stringify({ version: 'https://example.org', items: [] }), 'not a JSON Feed version'],
    [JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', items: {} }), 'no items'],
  ])('refuses %s', (body, reason) => {
    expect(() => parseJsonFeed(body)).toThrow(new FeedError(reason));
  });
});

describe('parseChangelog', () => {
  it('reads each dated release newest first, with its notes and link; Unreleased is not a release', () => {
    const md = [
      '# Changelog',
      'Intro.',
      '## [Unreleased]',
      '- coming',
      '## [2.0.0-beta.1] - 2026-12-01',
      '### Added',
      '- **Bold** thing',
      '',
      '## [1.0.0] - 2026-11-01',
      'First.',
      '[2.0.0-beta.1]: https://example.org/releases/2.0.0-beta.1',
    ].join('\n');
    expect(parseChangelog(md)).toEqual([
      {
        version: '2.0.0-beta.1',
        releaseDate: '2026-12-01T00:00:00Z',
        url: 'https://example.org/releases/2.0.0-beta.1',
        latest: true,
        preRelease: true,
        description: '### Added\n- **Bold** thing',
      },
      {
        version: '1.0.0',
        releaseDate: '2026-11-01T00:00:00Z',
        url: '',
        latest: false,
        preRelease: false,
        description: 'First.',
      },
    ]);
  });
});
