import type { renderScreen } from '../../test/render';

type User = ReturnType<typeof renderScreen>['user'];

/** Types `text` at once (a paste): MUI fields re-render on every key, which is slow in jsdom. */
export async function fill(user: User, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

/** Adds a chip to a chip field. */
export async function addChip(user: User, field: HTMLElement, text: string) {
  await fill(user, field, text);
  await user.keyboard('{Enter}');
}
