import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { UmpireTodo } from "./UmpireTodo";

const CAMPAIGN = { slug: "malta" } as Schemas["Campaign"];

afterEach(() => vi.unstubAllGlobals());

describe("the umpire's to-do", () => {
  it("lists each item in the API's words, linked to where it is done", async () => {
    const todo: Schemas["Todo"] = {
      items: [
        {
          kind: "orders_submitted",
          kind_label: "Orders to approve",
          text: "2 orders wait for your approval",
          link: "/campaigns/malta/orders",
          count: 2,
        },
      ],
    };
    stubFetch(jsonResponse(200, todo));
    renderWithProviders(<UmpireTodo campaign={CAMPAIGN} />);

    const link = await screen.findByRole("link", { name: "2 orders wait for your approval" });
    expect(link).toHaveAttribute("href", "/campaigns/malta/orders");
    expect(screen.getByText("Orders to approve")).toBeInTheDocument();
  });

  it("says when nothing waits", async () => {
    stubFetch(jsonResponse(200, { items: [] }));
    renderWithProviders(<UmpireTodo campaign={CAMPAIGN} />);

    expect(await screen.findByText("Nothing waits for you now.")).toBeInTheDocument();
  });
});
