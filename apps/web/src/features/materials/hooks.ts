// The materials screen's writes (the list is reference data: shared/reference.ts).
import { deleteMaterial, insertMaterial, updateMaterial } from '@studio/contract';
import { call } from '../../api/client.ts';
import { useWrite } from '../../shared/use-write.ts';

/** Renames a material (id given) or adds one under `parentId` (null: a new book). */
export function useSaveMaterial(target: { id: number } | { parentId: number | null }) {
  return useWrite(
    (name: string) =>
      'id' in target
        ? call(updateMaterial, { id: target.id, name })
        : call(insertMaterial, { name, parentId: target.parentId }),
    { success: '操作成功', changes: 'material' },
  );
}

export function useDeleteMaterial() {
  return useWrite((id: number) => call(deleteMaterial, { id }), { success: '删除成功', changes: 'material' });
}
