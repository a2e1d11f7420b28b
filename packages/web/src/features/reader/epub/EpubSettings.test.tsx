import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { PREFERENCES_STORAGE_KEY, resetPreferences } from '../../../app/preferences';
import { renderScreen } from '../../../test/render';
import { saveEpubReaderSettings, useEpubReaderSettings } from '../settings';
import { EpubSettings } from './EpubSettings';

afterEach(() => resetPreferences());

function Sheet(props: { serverFonts: string[]; fixedLayout?: boolean }) {
  const settings = useEpubReaderSettings();
  return (
    <EpubSettings
      open
      onClose={() => undefined}
      settings={settings}
      fixedLayout={props.fixedLayout ?? false}
      serverFonts={props.serverFonts}
      alwaysFullscreen={false}
      fullscreenSupported
      onAlwaysFullscreen={() => undefined}
    />
  );
}

const storedFont = () =>
  (JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? '{}') as { epubreader?: { fontFamily?: unknown } })
    .epubreader?.fontFamily;

describe('EPUB reader font setting', () => {
  it("offers the publisher's font, the generic families and the server's, and remembers the choice", async () => {
    const { user } = renderScreen(<Sheet serverFonts={['OpenDyslexic', 'Atkinson Hyperlegible']} />);
    const font = screen.getByRole('combobox', { name: 'Font' });
    expect(font).toHaveTextContent("Publisher's font");

    await user.click(font);
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      "Publisher's font",
      'Serif',
      'Sans serif',
      'Monospace',
      'OpenDyslexic',
      'Atkinson Hyperlegible',
    ]);
    await user.click(screen.getByRole('option', { name: 'OpenDyslexic' }));

    expect(screen.getByRole('combobox', { name: 'Font' })).toHaveTextContent('OpenDyslexic');
    expect(storedFont()).toBe('OpenDyslexic');

    await user.click(screen.getByRole('combobox', { name: 'Font' }));
    await user.click(screen.getByRole('option', { name: "Publisher's font" }));
    expect(storedFont()).toBeNull();
  });

  it('keeps showing a chosen family while the server families are not known yet', () => {
    saveEpubReaderSettings({ fontFamily: 'Atkinson Hyperlegible' });
    renderScreen(<Sheet serverFonts={[]} />);
    expect(screen.getByRole('combobox', { name: 'Font' })).toHaveTextContent('Atkinson Hyperlegible');
  });

  it('has no font setting for fixed-layout books', () => {
    renderScreen(<Sheet serverFonts={['OpenDyslexic']} fixedLayout />);
    expect(screen.queryByRole('combobox', { name: 'Font' })).not.toBeInTheDocument();
  });
});
