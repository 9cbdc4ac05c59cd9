#include "keytar.h"

// This is needed to make the builds on Ubuntu 14.04 / libsecret v0.16 work.
// The API we use has already stabilized.
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>
#include <stdio.h>
#include <string.h>

namespace keytar {

namespace {

static const SecretSchema schema = {
  "org.freedesktop.Secret.Generic", SECRET_SCHEMA_NONE, {
    { "service", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { "account", SECRET_SCHEMA_ATTRIBUTE_STRING }
  }
};

// Whether a call failed because an item it named is gone: gnome-keyring answers a call on a
// deleted item's path with UnknownMethod ("No such secret item at path"); other Secret Services
// with UnknownObject or the Secret Service's NoSuchObject.
bool ItemGone(const GError* error) {
  return g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD) ||
         g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT) ||
         g_error_matches(error, SECRET_ERROR, SECRET_ERROR_NO_SUCH_OBJECT);
}

}  // namespace

KEYTAR_OP_RESULT SetPassword(const std::string& service,
                             const std::string& account,
                             const std::string& password,
                             std::string* errStr) {
  GError* error = NULL;

  secret_password_store_sync(
    &schema,                            // The schema.
    SECRET_COLLECTION_DEFAULT,          // Default collection.
    (service + "/" + account).c_str(),  // The label.
    password.c_str(),                   // The password.
    NULL,                               // Cancellable. (unneeded)
    &error,                             // Reference to the error.
    "service", service.c_str(),
    "account", account.c_str(),
    NULL);                              // End of arguments.

  if (error != NULL) {
    *errStr = std::string(error->message);
    g_error_free(error);
    return FAIL_ERROR;
  }

  return SUCCESS;
}

KEYTAR_OP_RESULT GetPassword(const std::string& service,
                             const std::string& account,
                             std::string* password,
                             std::string* errStr) {
  GError* error = NULL;

  gchar* raw_password = secret_password_lookup_sync(
    &schema,                            // The schema.
    NULL,                               // Cancellable. (unneeded)
    &error,                             // Reference to the error.
    "service", service.c_str(),
    "account", account.c_str(),
    NULL);                              // End of arguments.

  if (error != NULL) {
    *errStr = std::string(error->message);
    g_error_free(error);
    return FAIL_ERROR;
  }

  if (raw_password == NULL)
    return FAIL_NONFATAL;

  *password = raw_password;
  secret_password_free(raw_password);
  return SUCCESS;
}

KEYTAR_OP_RESULT DeletePassword(const std::string& service,
                                const std::string& account,
                                std::string* errStr) {
  GError* error = NULL;

  gboolean result = secret_password_clear_sync(
    &schema,                            // The schema.
    NULL,                               // Cancellable. (unneeded)
    &error,                             // Reference to the error.
    "service", service.c_str(),
    "account", account.c_str(),
    NULL);                              // End of arguments.

  if (error != NULL) {
    *errStr = std::string(error->message);
    g_error_free(error);
    return FAIL_ERROR;
  }

  if (!result)
    return FAIL_NONFATAL;

  return SUCCESS;
}

KEYTAR_OP_RESULT FindPassword(const std::string& service,
                              std::string* password,
                              std::string* errStr) {
  GError* error = NULL;

  gchar* raw_password = secret_password_lookup_sync(
    &schema,                            // The schema.
    NULL,                               // Cancellable. (unneeded)
    &error,                             // Reference to the error.
    "service", service.c_str(),
    NULL);                              // End of arguments.

  if (error != NULL) {
    *errStr = std::string(error->message);
    g_error_free(error);
    return FAIL_ERROR;
  }

  if (raw_password == NULL)
    return FAIL_NONFATAL;

  *password = raw_password;
  secret_password_free(raw_password);
  return SUCCESS;
}

KEYTAR_OP_RESULT FindCredentials(const std::string& service,
                                 std::vector<Credentials>* credentials,
                                 std::string* errStr) {
  GError* error = NULL;

  SecretService* secretService =
    secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, NULL, &error);
  if (error != NULL) {
    *errStr = std::string(error->message);
    g_error_free(error);
    return FAIL_ERROR;
  }

  GHashTable* attributes = g_hash_table_new(NULL, NULL);
  g_hash_table_replace(attributes,
                       (gpointer) "service",
                       (gpointer) service.c_str());

  // The search answers paths only, in one call: an item deleted meanwhile, by this process or
  // any other, cannot fail it. keytar 7.9.0 searched with SECRET_SEARCH_LOAD_SECRETS, which
  // reads every item's properties and secret as part of the search: one item gone in between
  // failed the whole listing (or came back without its secret, passed to strdup: SIGSEGV).
  gchar** unlockedPaths = NULL;
  gchar** lockedPaths = NULL;
  secret_service_search_for_dbus_paths_sync(secretService, &schema, attributes, NULL,
                                            &unlockedPaths, &lockedPaths, &error);
  g_hash_table_destroy(attributes);

  gchar** newlyUnlocked = NULL;
  if (error == NULL && lockedPaths != NULL && lockedPaths[0] != NULL) {
    secret_service_unlock_dbus_paths_sync(secretService, (const gchar**) lockedPaths, NULL,
                                          &newlyUnlocked, &error);
  }

  // Each item is then read on its own; one that is gone by now is left out, as is an item of
  // the service stored by another program without an account or a text secret.
  gchar** pathLists[] = { unlockedPaths, newlyUnlocked };
  for (gchar** paths : pathLists) {
    for (gchar** path = paths; error == NULL && path != NULL && *path != NULL; path++) {
      GError* itemError = NULL;
      SecretItem* item = secret_item_new_for_dbus_path_sync(secretService, *path,
                                                            SECRET_ITEM_NONE, NULL, &itemError);
      SecretValue* secret = itemError != NULL ? NULL :
        secret_service_get_secret_for_dbus_path_sync(secretService, *path, NULL, &itemError);
      if (itemError != NULL) {
        if (!ItemGone(itemError))
          error = g_error_copy(itemError);
        g_error_free(itemError);
      } else {
        GHashTable* itemAttrs = secret_item_get_attributes(item);
        const gchar* account = itemAttrs == NULL ? NULL :
          reinterpret_cast<const gchar*>(g_hash_table_lookup(itemAttrs, "account"));
        const gchar* password = secret == NULL ? NULL : secret_value_get_text(secret);
        if (account != NULL && password != NULL)
          credentials->push_back(Credentials(account, password));
        if (itemAttrs != NULL)
          g_hash_table_unref(itemAttrs);
      }
      if (secret != NULL)
        secret_value_unref(secret);
      if (item != NULL)
        g_object_unref(item);
    }
  }

  g_strfreev(unlockedPaths);
  g_strfreev(lockedPaths);
  g_strfreev(newlyUnlocked);
  g_object_unref(secretService);

  if (error != NULL) {
    credentials->clear();
    *errStr = std::string(error->message);
    g_error_free(error);
    return FAIL_ERROR;
  }
  return SUCCESS;
}

}  // namespace keytar
