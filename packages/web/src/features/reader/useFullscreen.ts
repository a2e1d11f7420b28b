import { useCallback, useEffect, useState } from 'react';

export interface Fullscreen {
  supported: boolean;
  active: boolean;
  toggle: () => void;
}

const isActive = () => typeof document !== 'undefined' && !!document.fullscreenElement;

/**
 * The window's full-screen state. With `always`, the reader enters full screen as soon as the browser allows it: at
 * once when it can, else at the user's next key press or tap (browsers require a gesture). Full screen is left when
 * the reader closes.
 */
export function useFullscreen(always: boolean): Fullscreen {
  const supported = typeof document !== 'undefined' && !!document.fullscreenEnabled;
  const [active, setActive] = useState(isActive);

  useEffect(() => {
    const onChange = () => setActive(isActive());
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  useEffect(() => {
    if (!always || !supported) return;
    const enter = () => {
      if (!isActive()) document.documentElement.requestFullscreen().catch(() => undefined);
    };
    enter();
    window.addEventListener('keydown', enter, { once: true });
    window.addEventListener('pointerup', enter, { once: true });
    return () => {
      window.removeEventListener('keydown', enter);
      window.removeEventListener('pointerup', enter);
    };
  }, [always, supported]);

  useEffect(
    () => () => {
      if (isActive()) document.exitFullscreen().catch(() => undefined);
    },
    [],
  );

  const toggle = useCallback(() => {
    if (!supported) return;
    if (isActive()) document.exitFullscreen().catch(() => undefined);
    else document.documentElement.requestFullscreen().catch(() => undefined);
  }, [supported]);

  return { supported, active, toggle };
}
