import {
  areaTree,
  cardProductList,
  courseSimpleList,
  lessonTypeList,
  materialList,
  memberInfo,
  MODULE_ONLINE_DEFAULT,
  moduleStatus,
  storeSetting,
  queryCheckinCode,
  queryMemberPage,
  queryPaySetting,
  querySellerList,
  teacherList,
  type AreaNode,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client.ts';
import { useStore } from './profile.ts';
import { keys } from './query-keys.ts';

/** Reference data changes rarely: kept fresh for five minutes (every write of it refetches). */
const LONG = 5 * 60_000;

export function useTeachers() {
  return useQuery({ queryKey: keys.teachers, queryFn: () => call(teacherList, {}), staleTime: LONG });
}

/**
 * Whether the store takes payments online (WeChat Pay or Alipay enabled in 在线收款): without it
 * members see no 购卡, so products marked 线上售卖 are shown with a warning. Undefined while loading
 * (a manager's read: products and payment settings are theirs).
 */
export function useOnlinePayOn(enabled = true): boolean | undefined {
  const q = useQuery({ queryKey: keys.paySetting, queryFn: () => call(queryPaySetting, {}), enabled });
  return q.data ? q.data.wechat.enabled || q.data.alipay.enabled : undefined;
}

/** Who may be named 销售员 of a sale: the store's enabled staff. */
export function useSellers() {
  return useQuery({ queryKey: keys.sellers, queryFn: () => call(querySellerList, {}), staleTime: LONG });
}

/**
 * 新课程默认在线教室 (module 1), read through the spec's module-status call: whether new sessions
 * (add, batch scheduling) start as online ones. Undefined while loading.
 */
export function useOnlineDefault(): boolean | undefined {
  const store = useStore();
  const q = useQuery({
    queryKey: keys.moduleStatus(MODULE_ONLINE_DEFAULT),
    queryFn: () => call(moduleStatus, { storeId: store.id, moduleId: MODULE_ONLINE_DEFAULT }),
    staleTime: LONG,
  });
  return q.data ? q.data.status === 1 : undefined;
}

/** The venue tree (a venue holds its rooms). */
export function useVenues() {
  return useQuery({ queryKey: keys.venues, queryFn: () => call(areaTree, {}), staleTime: LONG });
}

/** The courses as picker options (id, name, default capacity). */
export function useCourseOptions() {
  return useQuery({ queryKey: keys.courses.options, queryFn: () => call(courseSimpleList, {}), staleTime: LONG });
}

/** The 私教/小班 lesson types (issue 43), enabled or not, with their teachers, prices, rooms and machines. */
export function useLessonTypes() {
  return useQuery({ queryKey: keys.lessonSetup.types, queryFn: () => call(lessonTypeList, {}) });
}

/** Materials; a failed lookup silently yields an empty list (spec section 8). */
export function useMaterials() {
  const store = useStore();
  return useQuery({
    queryKey: keys.materials.ofStore(store.id),
    queryFn: () => call(materialList, { storeId: store.id }, { silent: true }).catch(() => []),
    staleTime: LONG,
  });
}

/** The card products on sale. */
export function useCardProducts() {
  return useQuery({ queryKey: keys.cardProducts, queryFn: () => call(cardProductList, {}) });
}

/** The store's name, logo and booking QR code. */
export function useStoreSetting() {
  const store = useStore();
  return useQuery({
    queryKey: keys.storeSetting.one(store.id),
    queryFn: () => call(storeSetting, { storeId: store.id }),
  });
}

/** A member with the cards they hold. */
export function useMember(id: number | undefined) {
  return useQuery({ queryKey: keys.member.one(id), queryFn: () => call(memberInfo, { id: id! }), enabled: !!id });
}

export interface VenueOption {
  title: string;
  value: number;
  key: number;
  children: VenueOption[];
}

/** antd TreeSelect / Tree data from the venue tree, without `exclude` and its rooms. */
export function venueTreeData(nodes: AreaNode[] | undefined, exclude?: number): VenueOption[] {
  return (nodes ?? [])
    .filter((n) => n.id !== exclude)
    .map((n) => ({ title: n.name, value: n.id, key: n.id, children: venueTreeData(n.children, exclude) }));
}

/** The members' page address of the store (its QR code: store settings, the weekly picture). */
export function useMemberPage() {
  return useQuery({ queryKey: keys.memberPage, queryFn: () => call(queryMemberPage, {}), staleTime: LONG });
}

/** Today's self check-in code of the store and its link (the QR at the desk). */
/**
 * The store's self check-in code. In 前台屏幕 mode it changes every minute: asked again every 5 s
 * while a screen shows it (the last minute's code is still accepted meanwhile).
 */
export function useCheckinCode() {
  return useQuery({
    queryKey: keys.checkinCode,
    queryFn: () => call(queryCheckinCode, {}),
    refetchInterval: (q) => (q.state.data?.mode === 'screen' ? 5_000 : false),
    refetchIntervalInBackground: true,
  });
}
