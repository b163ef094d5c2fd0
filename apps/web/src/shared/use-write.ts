import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useRef, useState } from 'react';
import { afterWrite, type WriteKind } from './invalidations.ts';

export interface WriteOptions<A extends unknown[]> {
  /** Toast shown after success. */
  success?: string;
  /** What the write changes (the caches refetched after success, see `invalidates`). */
  changes?: WriteKind;
  /** A failure the caller shows itself (the call was made `silent`); otherwise the request helper has shown it. */
  onError?: (e: Error, ...args: A) => void;
}

/**
 * The one wrapper of a server write: one run at a time (no double submit), a loading flag for the
 * button, the success toast and the refetch of what the write changes. `run` answers `{ data }`,
 * or undefined when the write failed or another run was still going.
 */
export function useWrite<A extends unknown[], R>(fn: (...args: A) => Promise<R>, opts: WriteOptions<A> = {}) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const busy = useRef(false);
  const [loading, setLoading] = useState(false);
  const run = async (...args: A): Promise<{ data: R } | undefined> => {
    if (busy.current) return undefined;
    busy.current = true;
    setLoading(true);
    try {
      const data = await fn(...args);
      if (opts.success) void message.success(opts.success);
      if (opts.changes) afterWrite(qc, opts.changes);
      return { data };
    } catch (e) {
      opts.onError?.(e as Error, ...args);
      return undefined;
    } finally {
      busy.current = false;
      setLoading(false);
    }
  };
  return { run, loading, busy: () => busy.current };
}
