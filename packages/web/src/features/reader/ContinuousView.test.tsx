import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { BookPageDto } from '../../api/reader';
import { renderScreen } from '../../test/render';
import { ContinuousView, type ContinuousViewProps } from './ContinuousView';

const pages: BookPageDto[] = Array.from({ length: 4 }, (_, i) => ({
  number: i + 1,
  fileName: `${i + 1}.jpg`,
  mediaType: 'image/jpeg',
  width: 2400,
  height: 3600,
  sizeBytes: 1000,
  size: '1 KiB',
}));

const sources = () =>
  screen
    .getAllByRole('img', { hidden: true })
    .map((img) => img.getAttribute('src'))
    .filter((src): src is string => !!src);

const view = (props: Partial<ContinuousViewProps>) => (
  <ContinuousView
    bookId="b1"
    rendered
    pages={pages}
    jump={{ page: 1, seq: 0 }}
    current={1}
    scale="width"
    padding={10}
    margin={0}
    background="black"
    onPageChange={() => undefined}
    onAction={() => undefined}
    {...props}
  />
);

describe('ContinuousView page widths', () => {
  it('asks for server-rendered pages (PDF) at the device pixels they are drawn across', async () => {
    renderScreen(view({}));
    await screen.findByTestId('continuous-reader');
    // 80 % of the window (10 % padding on each side)
    const width = Math.ceil(window.innerWidth * 0.8 * (window.devicePixelRatio || 1));
    expect(sources().length).toBeGreaterThan(0);
    for (const src of sources()) expect(new URL(src, 'http://x').searchParams.get('width')).toBe(String(width));
  });

  it('asks for pages at their own size when shown at it, and for stored pages without a width', async () => {
    const { unmount } = renderScreen(view({ scale: 'original' }));
    await screen.findByTestId('continuous-reader');
    for (const src of sources()) expect(src).not.toMatch(/[?&]width=/);
    unmount();
    renderScreen(view({ rendered: false }));
    await screen.findByTestId('continuous-reader');
    expect(sources().length).toBeGreaterThan(0);
    for (const src of sources()) expect(src).not.toMatch(/[?&]width=/);
  });
});
