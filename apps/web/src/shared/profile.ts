import { me, type Profile } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client.ts';
import { keys } from './query-keys.ts';

/** The logged-in staff profile (from /api/auth/me); null when nobody is logged in. */
export function useProfile() {
  return useQuery({
    queryKey: keys.profile,
    queryFn: async (): Promise<Profile | null> => {
      try {
        return await call(me, {}, { silent: true, no401Redirect: true });
      } catch (e) {
        if ((e as { status?: number }).status === 401) return null;
        throw e;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
}

/** The acting store: the store of the first post (spec section 6). */
export function actingStore(profile: Profile | null | undefined): { id: number; name: string } | null {
  const post = profile?.posts[0];
  return post ? { id: post.store.id, name: post.store.name } : null;
}

/** The acting store of the logged-in profile; only used inside the authenticated layout. */
export function useStore(): { id: number; name: string } {
  const { data } = useProfile();
  return actingStore(data) ?? { id: 0, name: '' };
}
