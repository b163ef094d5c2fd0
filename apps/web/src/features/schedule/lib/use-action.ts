import { App } from 'antd';
import { useRef, useState } from 'react';
import { useRefreshSchedule } from './timetable.ts';

/**
 * Wraps a server write: one run at a time (no double submit), a loading flag for the button,
 * the success toast, and a refresh of the calendar and the open drawers. Failures were already
 * shown by the request helper; `run` then answers false.
 */
export function useAction<A extends unknown[]>(fn: (...args: A) => Promise<unknown>, success?: string) {
  const { message } = App.useApp();
  const refresh = useRefreshSchedule();
  const busy = useRef(false);
  const [loading, setLoading] = useState(false);
  const run = async (...args: A): Promise<boolean> => {
    if (busy.current) return false;
    busy.current = true;
    setLoading(true);
    try {
      await fn(...args);
      if (success) void message.success(success);
      refresh();
      return true;
    } catch {
      return false;
    } finally {
      busy.current = false;
      setLoading(false);
    }
  };
  return { run, loading };
}
