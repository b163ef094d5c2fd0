import { Select } from 'antd';

/**
 * 场地 of a lesson whose type needs a room: one of the type's rooms, or 自动 (`null`: the server
 * takes the first of them free then). The 约私教 and 固定时段 forms both ask with it.
 */
export function LessonRoomSelect({
  id,
  rooms,
  auto,
  value,
  onChange,
}: {
  id?: string;
  rooms: readonly { id: number; name: string }[];
  /** What 自动 does, in the form's words. */
  auto: string;
  value?: number | null;
  onChange?: (venueId: number | null) => void;
}) {
  return (
    <Select
      id={id}
      value={value ?? 0}
      onChange={(v: number) => onChange?.(v || null)}
      options={[{ value: 0, label: `自动（${auto}）` }, ...rooms.map((a) => ({ value: a.id, label: a.name }))]}
    />
  );
}
