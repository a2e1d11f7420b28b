import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// findBy* and waitFor retry until their condition holds, so a longer limit costs nothing when the machine is fast;
// Testing Library's default second is too short on a loaded one (a test's first render loads MUI and the page).
configure({ asyncUtilTimeout: 10_000 });
