import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { App } from 'antd';
import { useRef, useState } from 'react';

/**
 * Wraps a server write of a management screen: one run at a time (no double submit), a loading
 * flag, the success toast and a refresh of the given query keys. Failures were already shown by
 * the request helper; `run` then answers undefined.
 */
export function useWrite<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
  opts: { success?: string; invalidate?: QueryKey[] } = {},
) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const busy = useRef(false);
  const [loading, setLoading] = useState(false);
  const run = async (...args: A): Promise<{ ok: true; data: R } | undefined> => {
    if (busy.current) return undefined;
    busy.current = true;
    setLoading(true);
    try {
      const data = await fn(...args);
      if (opts.success) void message.success(opts.success);
      for (const key of opts.invalidate ?? []) void qc.invalidateQueries({ queryKey: key });
      return { ok: true, data };
    } catch {
      return undefined;
    } finally {
      busy.current = false;
      setLoading(false);
    }
  };
  return { run, loading };
}
