import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

/**
 * The app's router: the browser's history, a path matcher and the few hooks the screens use
 * (useLocation, useNavigate, useSearchParams, useParams, Link, Navigate, Outlet). It replaces
 * react-router, whose code was about 29 KB of the first load on the wire for these same needs.
 * Paths are absolute; a path pattern is literal segments and `:name` parameters.
 */

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  if (listeners.size === 1) window.addEventListener('popstate', notify);
  return () => {
    listeners.delete(l);
    if (listeners.size === 0) window.removeEventListener('popstate', notify);
  };
};
const snapshot = () => window.location.pathname + window.location.search;

export interface NavigateOptions {
  replace?: boolean;
}

/** Goes to an absolute path (with its query), adding a history entry unless `replace`. */
export function navigate(to: string, opts: NavigateOptions = {}) {
  if (to === snapshot() && !opts.replace) return;
  if (opts.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  notify();
}

export interface Location {
  pathname: string;
  search: string;
}

/** The current location; the component renders again when it changes. */
export function useLocation(): Location {
  const href = useSyncExternalStore(subscribe, snapshot);
  return useMemo(() => {
    const q = href.indexOf('?');
    return q < 0 ? { pathname: href, search: '' } : { pathname: href.slice(0, q), search: href.slice(q) };
  }, [href]);
}

export function useNavigate(): typeof navigate {
  return navigate;
}

type ParamsInit = URLSearchParams | Record<string, string>;

/** The query string as URLSearchParams and a setter (a value or a function of the current one). */
export function useSearchParams(): [
  URLSearchParams,
  (next: ParamsInit | ((prev: URLSearchParams) => ParamsInit), opts?: NavigateOptions) => void,
] {
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback((next: ParamsInit | ((prev: URLSearchParams) => ParamsInit), opts?: NavigateOptions) => {
    // Read when called: two updates in one event both apply.
    const value = typeof next === 'function' ? next(new URLSearchParams(window.location.search)) : next;
    const query = new URLSearchParams(value).toString();
    navigate(`${window.location.pathname}${query ? `?${query}` : ''}`, opts);
  }, []);
  return [params, set];
}

export interface PathMatch {
  params: Record<string, string>;
}

/** Matches a pattern such as `/course/edit/:id` against a path (case and a trailing slash ignored). */
export function matchPath(pattern: string, pathname: string): PathMatch | null {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i].toLowerCase() !== have[i].toLowerCase()) return null;
  }
  return { params };
}

const RouteContext = createContext<{ params: Record<string, string>; outlet: ReactNode }>({
  params: {},
  outlet: null,
});

/** Gives the routed screen its parameters and the frame its screen (rendered by <Outlet />). */
export function Route({
  params,
  outlet,
  children,
}: {
  params: Record<string, string>;
  outlet: ReactNode;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ params, outlet }), [params, outlet]);
  return <RouteContext.Provider value={value}>{children}</RouteContext.Provider>;
}

export function useParams(): Record<string, string | undefined> {
  return useContext(RouteContext).params;
}

export function Outlet() {
  return <>{useContext(RouteContext).outlet}</>;
}

/** Goes to `to` when rendered (after the render, as a redirect). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  useEffect(() => navigate(to, { replace }), [to, replace]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/** An in-app link: a real <a href> (opens in a new tab with a modifier key), navigated in place on a plain click. */
export function Link({ to, onClick, target, ...rest }: LinkProps) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (target && target !== '_self') return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} target={target} onClick={click} {...rest} />;
}
