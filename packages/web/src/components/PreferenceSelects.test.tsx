import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import i18n from '../i18n';
import { getPreferences, PREFERENCES_STORAGE_KEY, resetPreferences } from '../app/preferences';
import { renderScreen } from '../test/render';
import { LanguageSelect, ThemeSelect } from './PreferenceSelects';

afterEach(async () => {
  resetPreferences();
  await i18n.changeLanguage('en');
});

describe('theme and language selectors', () => {
  it('remembers the theme', async () => {
    const { user } = renderScreen(<ThemeSelect />);
    const select = screen.getByRole('combobox', { name: 'Theme' });
    expect(select).toHaveValue('system');
    await user.selectOptions(select, 'Dark');
    expect(getPreferences().theme).toBe('dark');
    expect(JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY)!)).toMatchObject({ theme: 'dark' });
  });

  it('switches the language, and Arabic turns the document right-to-left', async () => {
    const { user } = renderScreen(<LanguageSelect />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'ar');
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(screen.getByRole('combobox', { name: 'اللغة' })).toHaveValue('ar');
    await user.selectOptions(screen.getByRole('combobox', { name: 'اللغة' }), 'pl');
    await waitFor(() => expect(document.documentElement.dir).toBe('ltr'));
    expect(screen.getByRole('combobox', { name: 'Język' })).toBeInTheDocument();
  });
});
