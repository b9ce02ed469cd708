package abi

// standardBindings are the C bindings of MPI-5.0 Annex A.3.14 (ABI), A.3.15
// (profiling) and A.3.16 (MPI_T), transcribed from the standard's text. The
// HTML edition omits the return type of MPI_<Handle>_toint/_fromint; §20.4.5
// says toint "translates a C [...] handle into a C integer" and fromint
// "translates a C integer to the appropriate C [...] handle": int and the
// handle type.
var standardBindings = []string{
	"int MPI_Abi_get_fortran_booleans(int logical_size, void *logical_true, void *logical_false, int *is_set);", // A.3.14
	"int MPI_Abi_get_fortran_info(MPI_Info *info);",                                                             // A.3.14
	"int MPI_Abi_get_info(MPI_Info *info);",                                                                     // A.3.14
	"int MPI_Abi_get_version(int *abi_major, int *abi_minor);",                                                  // A.3.14
	"int MPI_Abi_set_fortran_booleans(int logical_size, void *logical_true, void *logical_false);",              // A.3.14
	"int MPI_Abi_set_fortran_info(MPI_Info info);",                                                              // A.3.14
	"MPI_Comm MPI_Comm_fromint(int comm);",                                                                      // A.3.14
	"int MPI_Comm_toint(MPI_Comm comm);",                                                                        // A.3.14
	"MPI_Errhandler MPI_Errhandler_fromint(int errhandler);",                                                    // A.3.14
	"int MPI_Errhandler_toint(MPI_Errhandler errhandler);",                                                      // A.3.14
	"MPI_File MPI_File_fromint(int file);",                                                                      // A.3.14
	"int MPI_File_toint(MPI_File file);",                                                                        // A.3.14
	"MPI_Group MPI_Group_fromint(int group);",                                                                   // A.3.14
	"int MPI_Group_toint(MPI_Group group);",                                                                     // A.3.14
	"MPI_Info MPI_Info_fromint(int info);",                                                                      // A.3.14
	"int MPI_Info_toint(MPI_Info info);",                                                                        // A.3.14
	"MPI_Message MPI_Message_fromint(int message);",                                                             // A.3.14
	"int MPI_Message_toint(MPI_Message message);",                                                               // A.3.14
	"MPI_Op MPI_Op_fromint(int op);",                                                                            // A.3.14
	"int MPI_Op_toint(MPI_Op op);",                                                                              // A.3.14
	"MPI_Request MPI_Request_fromint(int request);",                                                             // A.3.14
	"int MPI_Request_toint(MPI_Request request);",                                                               // A.3.14
	"MPI_Session MPI_Session_fromint(int session);",                                                             // A.3.14
	"int MPI_Session_toint(MPI_Session session);",                                                               // A.3.14
	"MPI_Datatype MPI_Type_fromint(int datatype);",                                                              // A.3.14
	"int MPI_Type_toint(MPI_Datatype datatype);",                                                                // A.3.14
	"MPI_Win MPI_Win_fromint(int win);",                                                                         // A.3.14
	"int MPI_Win_toint(MPI_Win win);",                                                                           // A.3.14
	"int MPI_Pcontrol(const int level, ...);",                                                                   // A.3.15
	"int MPI_T_category_changed(int *update_number);",                                                           // A.3.16
	"int MPI_T_category_get_categories(int cat_index, int len, int indices[]);",                                 // A.3.16
	"int MPI_T_category_get_cvars(int cat_index, int len, int indices[]);",                                      // A.3.16
	"int MPI_T_category_get_events(int cat_index, int len, int indices[]);",                                     // A.3.16
	"int MPI_T_category_get_index(const char *name, int *cat_index);",                                           // A.3.16
	"int MPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars, int *num_pvars, int *num_categories);", // A.3.16
	"int MPI_T_category_get_num_events(int cat_index, int *num_events);",                                                                                     // A.3.16
	"int MPI_T_category_get_num(int *num_cat);",                                                                                                              // A.3.16
	"int MPI_T_category_get_pvars(int cat_index, int len, int indices[]);",                                                                                   // A.3.16
	"int MPI_T_cvar_get_index(const char *name, int *cvar_index);",                                                                                           // A.3.16
	"int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope);", // A.3.16
	"int MPI_T_cvar_get_num(int *num_cvar);", // A.3.16
	"int MPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count);",                           // A.3.16
	"int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);",                                                                          // A.3.16
	"int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);",                                                                       // A.3.16
	"int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);",                                                                // A.3.16
	"int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len);",                                              // A.3.16
	"int MPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len);",                                 // A.3.16
	"int MPI_T_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info *info_used);", // A.3.16
	"int MPI_T_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info);",       // A.3.16
	"int MPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer);",                                                        // A.3.16
	"int MPI_T_event_get_index(const char *name, int *event_index);",                                                                  // A.3.16
	"int MPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity, MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len, int *bind);", // A.3.16
	"int MPI_T_event_get_num(int *num_events);",                                                                                                                                             // A.3.16
	"int MPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index);",                                                                                                   // A.3.16
	"int MPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp);",                                                                                       // A.3.16
	"int MPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info, MPI_T_event_registration *event_registration);",                                                         // A.3.16
	"int MPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data, MPI_T_event_free_cb_function free_cb_function);",                                             // A.3.16
	"int MPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used);",                                                                                    // A.3.16
	"int MPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info);",                                                                                          // A.3.16
	"int MPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer);",                                                                                           // A.3.16
	"int MPI_T_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data, MPI_T_event_cb_function event_cb_function);", // A.3.16
	"int MPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration, MPI_T_event_dropped_cb_function dropped_cb_function);",                                                // A.3.16
	"int MPI_T_finalize(void);",                                                   // A.3.16
	"int MPI_T_init_thread(int required, int *provided);",                         // A.3.16
	"int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);", // A.3.16
	"int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *readonly, int *continuous, int *atomic);", // A.3.16
	"int MPI_T_pvar_get_num(int *num_pvar);", // A.3.16
	"int MPI_T_pvar_handle_alloc(MPI_T_pvar_session pe_session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle, int *count);",                                                                // A.3.16
	"int MPI_T_pvar_handle_free(MPI_T_pvar_session pe_session, MPI_T_pvar_handle *handle);",                                                                                                               // A.3.16
	"int MPI_T_pvar_readreset(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, void *buf);",                                                                                                       // A.3.16
	"int MPI_T_pvar_read(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, void *buf);",                                                                                                            // A.3.16
	"int MPI_T_pvar_reset(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle);",                                                                                                                      // A.3.16
	"int MPI_T_pvar_session_create(MPI_T_pvar_session *pe_session);",                                                                                                                                      // A.3.16
	"int MPI_T_pvar_session_free(MPI_T_pvar_session *pe_session);",                                                                                                                                        // A.3.16
	"int MPI_T_pvar_start(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle);",                                                                                                                      // A.3.16
	"int MPI_T_pvar_stop(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle);",                                                                                                                       // A.3.16
	"int MPI_T_pvar_write(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, const void *buf);",                                                                                                     // A.3.16
	"int MPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len, MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info);", // A.3.16
	"int MPI_T_source_get_num(int *num_sources);",                                                                                                                                                         // A.3.16
	"int MPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp);",                                                                                                                             // A.3.16
}
