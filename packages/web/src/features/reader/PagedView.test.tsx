import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { BookPageDto } from '../../api/reader';
import { renderScreen } from '../../test/render';
import { PagedView } from './PagedView';

const pages: BookPageDto[] = Array.from({ length: 6 }, (_, i) => ({
  number: i + 1,
  fileName: `${i + 1}.jpg`,
  mediaType: 'image/jpeg',
  width: 600,
  height: 900,
  sizeBytes: 1000,
  size: '1 KiB',
}));

/** The pages whose image has been given its source, in page order. */
const requested = () =>
  screen
    .getAllByRole('img', { hidden: true })
    .filter((img) => img.getAttribute('src'))
    .map((img) => Number(/pages\/(\d+)/.exec(img.getAttribute('src')!)?.[1]));

const image = (page: number) =>
  screen.getAllByRole('img', { hidden: true }).find((img) => img.getAttribute('src')?.includes(`/pages/${page}`))!;

describe('PagedView page loading', () => {
  it('asks for the current page first, then the next, the previous and the farther ones, one at a time', async () => {
    renderScreen(
      <PagedView
        bookId="b1"
        rendered
        pages={pages}
        spreads={pages.map((p) => [p])}
        current={2}
        direction="LEFT_TO_RIGHT"
        scale="screen"
        animations={false}
        swipe={false}
        background="black"
        onAction={() => undefined}
      />,
    );
    await screen.findByTestId('paged-reader');
    expect(requested()).toEqual([3]);
    // a server-rendered page is asked for at the width it is drawn at
    expect(image(3).getAttribute('src')).toMatch(/[?&]width=\d+/);
    fireEvent.load(image(3));
    expect(requested()).toEqual([3, 4]);
    fireEvent.load(image(4));
    expect(requested()).toEqual([2, 3, 4]);
    fireEvent.error(image(2));
    fireEvent.error(image(2));
    expect(requested()).toEqual([2, 3, 4, 5]);
    fireEvent.load(image(5));
    expect(requested()).toEqual([1, 2, 3, 4, 5]);
  });
});
