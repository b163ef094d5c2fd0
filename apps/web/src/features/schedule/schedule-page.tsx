export default function SchedulePage() {
  return <div>课程表</div>;
}
