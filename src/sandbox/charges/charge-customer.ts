import type { Customer, CustomerRequest } from '../../core/schemas/common.js';

/**
 * The customer as a charge shows it: every member of the service's shape, `""` for what the
 * request did not give (the service never answers null here). The billing address a request may
 * carry is accepted and kept off the charge, as the service does.
 */
export function chargeCustomer(given: CustomerRequest | undefined): Customer {
  const phone = (value: { countryCode: string; number: string } | undefined) => ({ countryCode: value?.countryCode ?? '', number: value?.number ?? '' });
  const delivery = given?.deliveryAddress;
  return {
    primaryPhone: phone(given?.primaryPhone),
    email: given?.email ?? '',
    deliveryAddress: {
      contactName: delivery?.contactName ?? '',
      phone: phone(delivery?.phone),
      address: {
        streetAddress: delivery?.address?.streetAddress ?? '',
        city: delivery?.address?.city ?? '',
        country: delivery?.address?.country ?? '',
        postCode: delivery?.address?.postCode ?? '',
      },
    },
  };
}
