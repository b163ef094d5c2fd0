import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api.ts';

/** How long an answer counts as fresh: tab switches within it show the cache without asking again. */
export const STALE_MS = 30_000;

/**
 * Whether a failed read is tried once more: a refusal (4xx: signed out, bad input, unknown store)
 * never, a dropped connection or a server error (no answer, 5xx) once, as a phone's network drops.
 */
export function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 1;
}

/**
 * The page's one QueryClient. Reads stay fresh for 30 s and are asked again when the member comes
 * back to the page (another app in between) or the phone's network returns; writes are never
 * repeated. A read whose `meta.errorToast` is set shows its failure through `toast` (the screens
 * whose failure was a toast before); the others show it in place.
 */
export function createQueryClient(toast: (message: string) => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.errorToast) toast(error.message);
      },
    }),
    defaultOptions: {
      queries: { staleTime: STALE_MS, retry: shouldRetry, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}
