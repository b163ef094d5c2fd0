// The venues screen's writes (the tree is reference data: shared/reference.ts).
import { deleteArea, insertArea, updateArea } from '@studio/contract';
import { call } from '../../api/client.ts';
import { useWrite } from '../../shared/use-write.ts';

export interface VenueFields {
  name: string;
  parentId?: number | null;
}

/** Saves a new venue (id null) or changes one (name, parent). */
export function useSaveVenue(id: number | null) {
  return useWrite(
    (v: VenueFields) => {
      const body = { name: v.name, parentId: v.parentId ?? null };
      return id ? call(updateArea, { id, ...body }) : call(insertArea, body);
    },
    { success: '操作成功', changes: 'venue' },
  );
}

export function useDeleteVenue() {
  return useWrite((id: number) => call(deleteArea, { id }), { success: '删除成功', changes: 'venue' });
}
