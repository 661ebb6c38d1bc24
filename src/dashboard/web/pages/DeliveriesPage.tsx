// The Deliveries page (issue 39): the webhook inbox's recent events with their state at
// `#/deliveries`, one event's prompt, answer and delivery at `#/deliveries/<id>`, with Redeliver
// and Re-run. The list's filters live here, so going back from an event finds the list as it was.
import { useMemo, useState } from 'react';
import type { DashboardApi } from '../api.js';
import { createDeliveriesApi, type ListQuery } from '../deliveries-api.js';
import { DeliveryDetailView } from '../deliveries-detail.js';
import { DeliveriesList } from '../deliveries-list.js';

export function DeliveriesPage({ api, id }: { api: DashboardApi; id?: string }) {
  const deliveries = useMemo(() => createDeliveriesApi(api), [api]);
  const [query, setQuery] = useState<ListQuery>({ route: '', state: '' });
  return (
    <main className="page deliveries-page">
      {id === undefined ? (
        <>
          <div className="page-head">
            <h1>Deliveries</h1>
            <p className="lede">Every webhook event the gateway accepted, newest first: whether it ran, what it answered and where the answer went. Open one to deliver its answer again or to run it again.</p>
          </div>
          <DeliveriesList deliveries={deliveries} query={query} onQuery={setQuery} />
        </>
      ) : (
        <DeliveryDetailView key={id} deliveries={deliveries} id={id} />
      )}
    </main>
  );
}
