import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { App, preloadRoute } from "./App";
import { createQueryClient } from "./session";
import "./styles.css";

const queryClient = createQueryClient({ queries: { retry: 1, refetchOnWindowFocus: false } });
preloadRoute(queryClient, window.location);

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}
