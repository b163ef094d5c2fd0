import { Button } from 'antd';
import { Component, type ReactNode } from 'react';
import { Notice } from '../shared/notice.tsx';

interface State {
  error: Error | null;
}

/**
 * Catches a screen that fails to draw (e.g. a stored value of a shape it cannot read) so that the
 * frame, the menu and every other screen keep working; says in Chinese what could not be read.
 * Wired once around the routed screen in layout.tsx, keyed by the path (a new screen starts afresh).
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <Notice
        kind="warning"
        title="本页面有数据无法读取"
        detail={`无法显示的内容：${error.message}。其他页面不受影响，可以检查或重新保存本页的设置。`}
        extra={
          <Button type="primary" onClick={() => this.setState({ error: null })}>
            重新加载本页
          </Button>
        }
      />
    );
  }
}
