import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import i18n from '../i18n';
import { resetPreferences } from '../app/preferences';

// findBy* and waitFor retry until their condition holds, so a longer limit costs nothing when the machine is fast;
// Testing Library's default second is too short on a loaded one (a test's first render loads MUI and the page).
configure({ asyncUtilTimeout: 10_000 });

// The web project runs its test files one after another in a shared window (isolate: false in vitest.config.ts), and
// this file runs again before each of them: every file starts as it would in a fresh window, with nothing stored,
// the default preferences and English, and every test's rendering is unmounted after it.
localStorage.clear();
sessionStorage.clear();
resetPreferences();
await i18n.changeLanguage('en');
afterEach(() => cleanup());
