import {
  areaTree,
  courseSimpleList,
  DEDUCT_AT_SIGN_IN,
  materialList,
  MODULE_DEDUCTION_MODE,
  moduleStatus,
  teacherList,
  type AreaNode,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { useStore } from '../../../api/profile.ts';

const LONG = 5 * 60_000;

export function useTeachers() {
  return useQuery({ queryKey: ['teachers'], queryFn: () => call(teacherList, {}), staleTime: LONG });
}

export function useAreas() {
  return useQuery({ queryKey: ['areas'], queryFn: () => call(areaTree, {}), staleTime: LONG });
}

export function useCourses() {
  return useQuery({ queryKey: ['courses'], queryFn: () => call(courseSimpleList, {}), staleTime: LONG });
}

/** Materials; a failed lookup silently yields an empty list (spec section 8). */
export function useMaterials() {
  const store = useStore();
  return useQuery({
    queryKey: ['materials', store.id],
    queryFn: () => call(materialList, { storeId: store.id }, { silent: true }).catch(() => []),
    staleTime: LONG,
  });
}

/** Store module 6: true when the card is deducted only at on-site sign-in (mode 1). */
export function useSignInMode(): { signInMode: boolean; loading: boolean } {
  const store = useStore();
  const q = useQuery({
    queryKey: ['module', store.id, MODULE_DEDUCTION_MODE],
    queryFn: () => call(moduleStatus, { storeId: store.id, moduleId: MODULE_DEDUCTION_MODE }),
    staleTime: 30_000,
  });
  return { signInMode: q.data?.status === DEDUCT_AT_SIGN_IN, loading: q.isPending };
}

/** antd TreeSelect / Tree data from the area tree. */
export function areaTreeData(nodes: AreaNode[] | undefined): { title: string; value: number; children: any[] }[] {
  return (nodes ?? []).map((n) => ({ title: n.name, value: n.id, key: n.id, children: areaTreeData(n.children) }));
}
