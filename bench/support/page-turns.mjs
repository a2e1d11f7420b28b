// Shared by the reader benchmarks: the page shown, and how long a page turn takes from key press to painted image.
import { sleep } from './server.mjs';

/**
 * What the probe keeps on the reader's window: the page awaited, and the last turn's times.
 * @typedef {Window & { __expected?: number, __turn?: { start: number, end: number | null } | null }} ProbeWindow
 */

/** The number of the page whose image is on screen, 0 while none is (or the document is still loading). */
export const shownPage = (/** @type {import('playwright-core').Page} */ page) =>
  page
    .evaluate(() => {
      const img = /** @type {HTMLImageElement | null} */ (document.querySelector('[data-current] img'));
      return img?.complete && img.naturalWidth ? Number(/\d+/.exec(img.alt)?.[0]) : 0;
    })
    .catch(() => 0);

/**
 * Puts in the page a capturing keydown listener that notes each ArrowRight press, and a requestAnimationFrame loop
 * that notes the first frame with the awaited page's image on screen.
 */
export async function installTurnProbe(/** @type {import('playwright-core').Page} */ page) {
  await page.evaluate(() => {
    const probe = /** @type {ProbeWindow} */ (window);
    probe.__turn = null;
    probe.addEventListener(
      'keydown',
      (e) => {
        if (e.key !== 'ArrowRight') return;
        const expected = probe.__expected;
        /** @type {{ start: number, end: number | null }} */
        const turn = { start: performance.now(), end: null };
        probe.__turn = turn;
        const check = () => {
          const img = /** @type {HTMLImageElement | null} */ (document.querySelector('[data-current] img'));
          const ready = img && img.complete && img.naturalWidth > 0 && img.alt.endsWith(` ${expected}`);
          if (ready) setTimeout(() => (turn.end = performance.now()), 0);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      },
      { capture: true },
    );
  });
}

/** Presses the Next key and answers the milliseconds until page `expected` is painted (needs `installTurnProbe`). */
export async function timeTurn(
  /** @type {import('playwright-core').Page} */ page,
  /** @type {number} */ expected,
  /** @type {number} */ timeoutMs,
) {
  await page.evaluate((n) => {
    /** @type {ProbeWindow} */ (window).__expected = n;
  }, expected);
  await page.keyboard.press('ArrowRight');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ms = await page.evaluate(() => {
      const turn = /** @type {ProbeWindow} */ (window).__turn;
      return turn?.end != null ? turn.end - turn.start : undefined;
    });
    if (ms !== undefined) return ms;
    if (Date.now() > deadline) throw new Error(`page ${expected} was never shown`);
    await sleep(5);
  }
}
