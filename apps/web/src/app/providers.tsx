import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { useEffect, type ReactNode } from 'react';
import { setErrorToast } from '../api/client.ts';
import '../shared/dayjs.ts';
import { appTheme } from './theme.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 60_000, retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

/** Routes the request helper's error toasts through antd's message API (inside the theme context). */
function ToastBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setErrorToast((msg) => void message.error(msg)), [message]);
  return null;
}

/**
 * People who ask their system for less motion get none: dialogs, drawers and toasts appear at once
 * (antd's animations off). Browser tests run that way too, so a click never lands on a dialog still
 * zooming in.
 */
const reducedMotion = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
const theme = appTheme(!reducedMotion);

/** antd (zh_CN) and TanStack Query around the whole app. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <AntApp>
        <ToastBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
