import { Space } from 'antd';
import { TeacherSelect } from '../../../shared/pickers/teacher-select.tsx';
import { VenueSelect } from '../../../shared/pickers/venue-select.tsx';

interface Props {
  venueId: number | null;
  teacherId: number | null;
  onVenue: (id: number | null) => void;
  onTeacher: (id: number | null) => void;
}

/** Venue (tree: a venue includes its rooms) and teacher filters of the calendar. */
export function Filters({ venueId, teacherId, onVenue, onTeacher }: Props) {
  return (
    <Space wrap>
      <VenueSelect
        data-testid="area-filter"
        style={{ width: 200 }}
        placeholder="全部场地"
        value={venueId}
        onChange={onVenue}
      />
      <TeacherSelect
        data-testid="teacher-filter"
        style={{ width: 160 }}
        placeholder="全部老师"
        allowClear
        value={teacherId ?? undefined}
        onChange={(v?: number) => onTeacher(v ?? null)}
      />
    </Space>
  );
}
