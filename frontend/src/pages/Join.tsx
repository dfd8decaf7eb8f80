import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { api, unwrap } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { ErrorNotice, QueryView } from "../components/status";

/** An invitation link: what it offers, and a button to accept it as the person signed in. */
export function JoinPage() {
  const token = useParams().token ?? "";
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invitation = useQuery({
    queryKey: queryKeys.invitation(token),
    queryFn: () => unwrap(api.GET("/api/v1/invitations/{token}/", { params: { path: { token } } })),
  });
  const accept = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/invitations/{token}/accept/", { params: { path: { token } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.campaigns });
      void queryClient.invalidateQueries({ queryKey: queryKeys.session });
      navigate(`/campaigns/${invitation.data?.campaign ?? ""}`);
    },
  });
  return (
    <section>
      <h1>Invitation</h1>
      <QueryView query={invitation} what="the invitation">
        {(offer) => {
          const as = offer.side_name ? `${offer.role_label.toLowerCase()} of ${offer.side_name}` : offer.role_label.toLowerCase();
          if (offer.used || offer.expired) {
            return (
              <p className="error" role="alert">
                This invitation to {offer.campaign_name} {offer.used ? "was already used" : "has expired"}: ask your
                umpire for a new one. <Link to="/">Your campaigns</Link>
              </p>
            );
          }
          return (
            <div className="card">
              <p>
                You are invited to <strong>{offer.campaign_name}</strong> as {as}.
              </p>
              {accept.error ? <ErrorNotice error={accept.error} /> : null}
              <button type="button" onClick={() => accept.mutate()} disabled={accept.isPending}>
                Join {offer.campaign_name}
              </button>
            </div>
          );
        }}
      </QueryView>
    </section>
  );
}
