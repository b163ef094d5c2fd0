import { QueryClientProvider } from '@tanstack/react-query';
import { reduceMotion, Toast, unstableSetRender } from 'antd-mobile';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './app.tsx';
import { createQueryClient } from './query-client.ts';
import './member.css';

// antd-mobile 5 renders its toasts and dialogs through react-dom's legacy render, which React 19
// removed: its React 19 guide has the app hand it createRoot (see the README).
unstableSetRender((node, container) => {
  const holder = container as (Element | DocumentFragment) & { _reactRoot?: Root };
  holder._reactRoot ||= createRoot(container);
  const root = holder._reactRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
  };
});

// Phones asking for less motion get none: sheets, dialogs and toasts appear at once (a toast read
// while it fades in is faint). The browser tests run that way too.
if (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches) reduceMotion();

// The page's one cache of the server's answers; a read that fails as a toast says so in one.
const queryClient = createQueryClient((message) => Toast.show({ content: message }));

// A marketing text's unsubscribe link (?u=TOKEN): its own page, no store chosen, no sign-in.
const unsubscribeToken = new URLSearchParams(window.location.search).get('u');
const Unsubscribe = lazy(() => import('./unsubscribe.tsx').then((m) => ({ default: m.Unsubscribe })));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      {unsubscribeToken ? (
        <Suspense fallback={null}>
          <Unsubscribe token={unsubscribeToken} />
        </Suspense>
      ) : (
        <App />
      )}
    </QueryClientProvider>
  </StrictMode>,
);
