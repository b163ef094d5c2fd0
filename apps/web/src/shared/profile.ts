import { me, type CallDef, type Profile, type StaffRole } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call, rememberLogout } from '../api/client.ts';
import { keys } from './query-keys.ts';
import { DEFAULT_TIME_ZONE } from './timezones.ts';

/** The logged-in staff profile (from /api/auth/me); null when nobody is logged in. */
export function useProfile() {
  return useQuery({
    queryKey: keys.profile,
    queryFn: async (): Promise<Profile | null> => {
      try {
        return await call(me, {}, { silent: true, keepSignedIn: true });
      } catch (e) {
        if ((e as { status?: number }).status === 401) {
          // Logged out (the login page says why when it is more than an ended session).
          rememberLogout(e);
          return null;
        }
        throw e;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
}

type Post = Profile['posts'][number];

/** The acting post: the first one (spec section 6), with the role held in that store. */
export function actingPost(profile: Profile | null | undefined): Post | null {
  return profile?.posts[0] ?? null;
}

/** The acting store: the store of the first post (spec section 6), with its time zone. */
export function actingStore(
  profile: Profile | null | undefined,
): { id: number; name: string; timezone: string } | null {
  const post = actingPost(profile);
  return post ? { id: post.store.id, name: post.store.name, timezone: post.store.timezone } : null;
}

/** The acting store of the logged-in profile; only used inside the authenticated layout. */
export function useStore(): { id: number; name: string; timezone: string } {
  const { data } = useProfile();
  return actingStore(data) ?? { id: 0, name: '', timezone: DEFAULT_TIME_ZONE };
}

/**
 * The logged-in staff member's role in the acting store (店长, 前台 or 老师). Only used inside the
 * authenticated layout, where the profile is loaded; without one it answers the narrowest role.
 */
export function useRole(): StaffRole {
  const { data } = useProfile();
  return actingPost(data)?.role ?? 'teacher';
}

/** Whether `role` may make `call`: a call naming no roles (log-in, own password) is open to every staff member. */
export function roleCan(role: StaffRole, c: Pick<CallDef, 'roles'>): boolean {
  return !c.roles || c.roles.includes(role);
}

/**
 * Whether the logged-in staff member may make `call` (the contract's `roles` of it): screens hide the
 * buttons of calls the server would refuse (403 您的账号没有这项操作的权限).
 */
export function useCan(c: Pick<CallDef, 'roles'>): boolean {
  return roleCan(useRole(), c);
}

/** Where a staff member goes when nothing else is asked for: the calendar. */
export const DEFAULT_HOME = '/course/calendar';
const LAST_PATH_KEY = (staffId: number) => `studio.lastPath.${staffId}`;

/** Remembers the screen a staff member is on (this browser), for their next login. */
export function rememberPath(staffId: number, path: string): void {
  try {
    localStorage.setItem(LAST_PATH_KEY(staffId), path);
  } catch {
    // Storage refused (private mode, full): the next login lands on the default.
  }
}

/**
 * Where a staff member lands after login: the desk and teachers on 今日 (their day); a manager
 * where they last were in this browser (remembered per staff member), the calendar the first time.
 */
export function landingPath(profile: Profile): string {
  const role = actingPost(profile)?.role ?? 'teacher';
  if (role !== 'manager') return '/today';
  let last: string | null = null;
  try {
    last = localStorage.getItem(LAST_PATH_KEY(profile.id));
  } catch {
    last = null;
  }
  return last && last.startsWith('/') && !last.startsWith('//') && !/^\/(login|setup)\b/.test(last)
    ? last
    : DEFAULT_HOME;
}
