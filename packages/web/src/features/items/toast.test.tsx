import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { ItemToasts, showItemToast } from './toast';

describe('ItemToasts', () => {
  it('draws the latest message once, and drops it when the shell goes (a reader opened), not to pop up stale', () => {
    const shell = render(<ItemToasts />);
    act(() => showItemToast('Analysis queued'));
    act(() => showItemToast('Book One deleted'));
    expect(screen.getByRole('status')).toHaveTextContent('Book One deleted');
    expect(screen.queryByText('Analysis queued')).not.toBeInTheDocument();
    shell.unmount();
    render(<ItemToasts />);
    expect(screen.queryByText('Book One deleted')).not.toBeInTheDocument();
  });

  it('says a failure as an alert', () => {
    render(<ItemToasts />);
    act(() => showItemToast('Forbidden', 'error'));
    expect(screen.getByRole('alert')).toHaveTextContent('Forbidden');
  });
});
